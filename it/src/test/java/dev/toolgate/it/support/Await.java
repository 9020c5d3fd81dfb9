package dev.toolgate.it.support;

import java.time.Duration;
import java.time.Instant;

/** Polls a condition until it holds: for effects a background job or another process brings about. */
public final class Await {

    /** Long enough for a reconcile run past a lapsed lease and the settle window on a loaded 2-core machine. */
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(90);

    private Await() {
    }

    public static void await(Check check, String what) throws Exception {
        await(check, what, DEFAULT_TIMEOUT);
    }

    public static void await(Check check, String what, Duration timeout) throws Exception {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (check.holds()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("timed out waiting for " + what);
    }

    /** A condition that may throw, as a JDBC query or an HTTP call does. */
    @FunctionalInterface
    public interface Check {
        boolean holds() throws Exception;
    }
}
