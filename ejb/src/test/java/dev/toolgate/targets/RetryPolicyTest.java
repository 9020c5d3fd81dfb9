package dev.toolgate.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

class RetryPolicyTest {

    private static final RetryPolicy NO_JITTER = new RetryPolicy(4, Duration.ofMillis(500), 2.0, Duration.ofSeconds(5), false);

    @Test
    void backsOffExponentiallyFromTheInitialDelay() {
        assertEquals(Duration.ofMillis(500), NO_JITTER.delayBefore(2, null, () -> 0.5));
        assertEquals(Duration.ofMillis(1000), NO_JITTER.delayBefore(3, null, () -> 0.5));
        assertEquals(Duration.ofMillis(2000), NO_JITTER.delayBefore(4, null, () -> 0.5));
    }

    @Test
    void capsTheDelay() {
        assertEquals(Duration.ofSeconds(5), NO_JITTER.delayBefore(10, null, () -> 0.5));
        assertEquals(Duration.ofSeconds(5), NO_JITTER.delayBefore(1000, null, () -> 0.5));
    }

    @Test
    void jitterStaysWithinTheUpperHalfOfTheStep() {
        Random random = new Random(7);
        for (int i = 0; i < 1000; i++) {
            long delay = RetryPolicy.DEFAULT.delayBefore(3, null, random::nextDouble).toMillis();
            assertTrue(delay >= 500 && delay <= 1000, "delay " + delay);
        }
    }

    @Test
    void honoursALongerRetryAfterFromTheTarget() {
        assertEquals(Duration.ofSeconds(3), NO_JITTER.delayBefore(2, Duration.ofSeconds(3), () -> 0.5));
        assertEquals(Duration.ofMillis(500), NO_JITTER.delayBefore(2, Duration.ofMillis(100), () -> 0.5));
    }

    @Test
    void countsAttemptsAgainstTheBudget() {
        assertFalse(RetryPolicy.DEFAULT.exhausted(3));
        assertTrue(RetryPolicy.DEFAULT.exhausted(4));
    }

    @Test
    void waitsInsideACallOnlyUpToTheCap() {
        assertTrue(RetryPolicy.DEFAULT.waitableInCall(Duration.ofSeconds(5)));
        assertFalse(RetryPolicy.DEFAULT.waitableInCall(Duration.ofSeconds(30)));
    }

    @Test
    void refusesAPolicyThatCouldNeverRunOrWouldShrink() {
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, Duration.ZERO, 2, Duration.ofSeconds(1), true));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, Duration.ofSeconds(1), 0.5, Duration.ofSeconds(5), true));
    }
}
