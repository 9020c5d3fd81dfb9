package dev.toolgate.lifecycle.decisions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

/** From when absence at the target is proof ({@link SettleWindows}). */
class SettleWindowsTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration LONGEST_REQUEST = Duration.ofSeconds(7);
    private static final Duration SETTLE = Duration.ofSeconds(2);

    @Test
    void aRequestSentJustBeforeTheLeaseEndedMayRunItsFullTimeoutAndThenSomeAtTheTarget() {
        Instant leaseEnded = NOW.minusSeconds(1);
        assertEquals(leaseEnded.plus(LONGEST_REQUEST).plus(SETTLE),
                SettleWindows.afterLapsedLease(NOW, leaseEnded, LONGEST_REQUEST, SETTLE));
    }

    @Test
    void aLeaseThatEndedLongAgoStartsTheWindowNow() {
        assertEquals(NOW.plus(SETTLE), SettleWindows.afterLapsedLease(NOW, NOW.minusSeconds(60), LONGEST_REQUEST, SETTLE));
        assertEquals(NOW.plus(SETTLE), SettleWindows.afterLapsedLease(NOW, null, LONGEST_REQUEST, SETTLE));
    }

    @Test
    void anAttemptThatGaveUpStartsTheWindowWhenItGaveUp() {
        assertEquals(NOW.plus(SETTLE), SettleWindows.afterUnknownOutcome(NOW, SETTLE));
    }
}
