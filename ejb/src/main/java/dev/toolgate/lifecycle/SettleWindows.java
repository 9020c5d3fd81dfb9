package dev.toolgate.lifecycle;

import java.time.Duration;
import java.time.Instant;

/**
 * From when a look-up that finds nothing proves that nothing happened. A target may still execute a
 * request after its client gave up on it, for up to the settle window; so absence proves nothing
 * until the settle window has passed since the last moment the request could still have been running.
 */
public final class SettleWindows {

    private SettleWindows() {
    }

    /**
     * For an attempt whose lease ended with no outcome recorded: the effect gate lets no request that
     * can create the effect start after {@code leaseUntil}, and one started just before it may run for
     * {@code longestRequest} (connect + read timeout) — so the window starts at the later of that and now.
     */
    public static Instant afterLapsedLease(Instant now, Instant leaseUntil, Duration longestRequest, Duration settleWindow) {
        Instant requestOver = leaseUntil == null ? now : leaseUntil.plus(longestRequest);
        return (requestOver.isAfter(now) ? requestOver : now).plus(settleWindow);
    }

    /** For an attempt whose own outcome was unknown (its client gave up now): the window starts now. */
    public static Instant afterUnknownOutcome(Instant now, Duration settleWindow) {
        return now.plus(settleWindow);
    }
}
