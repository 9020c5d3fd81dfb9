package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

/** When a console session has expired ({@link ConsoleGuard#expired}): idle too long, or signed in too long ago. */
class ConsoleGuardExpiryTest {

    private static final Instant SIGNED_IN = Instant.parse("2026-12-01T08:00:00Z");
    private static final Duration IDLE = Duration.ofMinutes(15);
    private static final Duration MAX = Duration.ofHours(8);

    @Test
    void aSessionUsedJustNowHasNotExpired() {
        Instant now = SIGNED_IN.plusSeconds(60);
        assertFalse(ConsoleGuard.expired(SIGNED_IN, now.minusSeconds(1), now, IDLE, MAX));
    }

    @Test
    void aSessionIdleJustUnderTheLimitHasNotExpired() {
        Instant now = SIGNED_IN.plus(Duration.ofHours(2));
        assertFalse(ConsoleGuard.expired(SIGNED_IN, now.minus(IDLE).plusMillis(1), now, IDLE, MAX));
        assertFalse(ConsoleGuard.expired(SIGNED_IN, now.minus(IDLE), now, IDLE, MAX), "exactly the limit is still within it");
    }

    @Test
    void aSessionIdleJustOverTheLimitHasExpired() {
        Instant now = SIGNED_IN.plus(Duration.ofHours(2));
        assertTrue(ConsoleGuard.expired(SIGNED_IN, now.minus(IDLE).minusMillis(1), now, IDLE, MAX));
    }

    @Test
    void aSessionPastItsAbsoluteLimitHasExpiredThoughUsedAMomentAgo() {
        Instant now = SIGNED_IN.plus(MAX).plusSeconds(1);
        assertTrue(ConsoleGuard.expired(SIGNED_IN, now.minusSeconds(1), now, IDLE, MAX));
    }

    @Test
    void aSessionAtItsAbsoluteLimitHasNotExpiredYet() {
        Instant now = SIGNED_IN.plus(MAX);
        assertFalse(ConsoleGuard.expired(SIGNED_IN, now.minusSeconds(1), now, IDLE, MAX));
    }

    @Test
    void theFirstRequestAfterSignInHasNoIdleTimeYet() {
        assertFalse(ConsoleGuard.expired(SIGNED_IN, null, SIGNED_IN.plus(IDLE).plusSeconds(1), IDLE, MAX),
                "no request seen yet: only the absolute limit applies");
        assertTrue(ConsoleGuard.expired(SIGNED_IN, null, SIGNED_IN.plus(MAX).plusSeconds(1), IDLE, MAX));
    }
}
