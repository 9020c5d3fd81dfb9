package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

class IdentityProviderCheckTest {

    private final AtomicBoolean up = new AtomicBoolean(true);
    private final AtomicInteger asked = new AtomicInteger();
    private Instant now = Instant.parse("2026-12-04T10:00:00Z");
    private final IdentityProviderCheck check = new IdentityProviderCheck(() -> {
        asked.incrementAndGet();
        return up.get();
    }, () -> now);

    @Test
    void asksOncePerFiveSecondsWhileItIsDown() {
        up.set(false);
        for (int i = 0; i < 50; i++) {
            assertFalse(check.answers());
        }
        assertEquals(1, asked.get());
    }

    @Test
    void seesAProviderThatCameBackWithinFiveSeconds() {
        up.set(false);
        assertFalse(check.answers());
        up.set(true);
        now = now.plus(IdentityProviderCheck.FRESH).minus(Duration.ofMillis(1));
        assertFalse(check.answers(), "as last seen");
        now = now.plus(Duration.ofMillis(1));
        assertTrue(check.answers());
        assertEquals(2, asked.get());
    }

    @Test
    void asksAgainAtOnceWhenSomethingWentWrongOnTheWay() {
        assertTrue(check.answers());
        up.set(false);
        assertFalse(check.answersNow());
        assertFalse(check.answers(), "the fresh answer is kept");
        assertEquals(2, asked.get());
    }
}
