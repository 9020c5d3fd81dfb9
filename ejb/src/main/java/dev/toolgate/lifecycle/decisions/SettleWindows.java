package dev.toolgate.lifecycle.decisions;

import java.time.Duration;
import java.time.Instant;

/**
 * From when a look-up that finds nothing proves nothing happened: a target may still execute a request for up to the
 * settle window after its client gave up on it.
 */
public final class SettleWindows {

    private SettleWindows() {
    }

    /**
     * A lapsed lease: the effect gate starts no request after {@code leaseUntil}, and one started just before may run
     * for {@code longestRequest}, so the window starts at the later of that and now.
     */
    public static Instant afterLapsedLease(Instant now, Instant leaseUntil, Duration longestRequest, Duration settleWindow) {
        Instant requestOver = leaseUntil == null ? now : leaseUntil.plus(longestRequest);
        return (requestOver.isAfter(now) ? requestOver : now).plus(settleWindow);
    }

    public static Instant afterUnknownOutcome(Instant now, Duration settleWindow) {
        return now.plus(settleWindow);
    }
}
