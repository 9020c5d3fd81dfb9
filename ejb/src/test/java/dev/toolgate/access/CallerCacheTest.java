package dev.toolgate.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Optional;

class CallerCacheTest {

    private static final Caller AGENT = new Caller("agent-a", "acme", EnumSet.of(Role.AGENT));
    private static final Caller OTHER = new Caller("agent-b", "acme", EnumSet.of(Role.AGENT));

    private final MutableClock clock = new MutableClock();
    private final CallerCache cache = new CallerCache(Duration.ofSeconds(60), 3, Duration.ofSeconds(15), clock);

    @Test
    void servesAStoredCallerWhileHearingChanges() {
        cache.heard();
        cache.put("d1", AGENT, cache.stamp());

        assertEquals(Optional.of(AGENT), cache.get("d1"));
    }

    @Test
    void storesNothingWhileChangesCannotBeHeard() {
        cache.put("d1", AGENT, cache.stamp());

        assertEquals(Optional.empty(), cache.get("d1"));
    }

    @Test
    void dropsEverythingWhenTheListenerIsLostAndStoresNothingUntilItListensAgain() {
        cache.heard();
        cache.put("d1", AGENT, cache.stamp());

        cache.deaf();
        cache.put("d2", OTHER, cache.stamp());

        assertEquals(Optional.empty(), cache.get("d1"));
        assertEquals(Optional.empty(), cache.get("d2"));
    }

    @Test
    void aChangeDropsEveryTokenOfThatPrincipalAndNoOther() {
        cache.heard();
        cache.put("old", AGENT, cache.stamp());
        cache.put("other", OTHER, cache.stamp());

        cache.changed("agent-a");

        assertEquals(Optional.empty(), cache.get("old"));
        assertEquals(Optional.of(OTHER), cache.get("other"));
    }

    @Test
    void aCallerReadBeforeAChangeIsNotStoredAfterIt() {
        cache.heard();
        long before = cache.stamp(); // the table is read now: agent-a still live

        cache.changed("agent-a"); // the revoke is heard before the read's result is stored
        cache.put("d1", AGENT, before);

        assertEquals(Optional.empty(), cache.get("d1"));
    }

    @Test
    void isNotUsedOnceTheListenerStopsProvingThatItHears() {
        cache.heard();
        cache.put("d1", AGENT, cache.stamp());

        clock.advance(Duration.ofSeconds(15)); // a listener that died or hangs says nothing more

        assertEquals(Optional.empty(), cache.get("d1"));
        cache.put("d2", AGENT, cache.stamp());
        cache.heard(); // it is back: what was stored before the silence is not trusted, nothing was stored during it
        assertEquals(Optional.empty(), cache.get("d1"));
        assertEquals(Optional.empty(), cache.get("d2"));
    }

    @Test
    void aTruncatedTableDropsEveryone() {
        cache.heard();
        cache.put("a", AGENT, cache.stamp());
        cache.put("b", OTHER, cache.stamp());

        cache.changed(CallerCache.EVERYONE);

        assertEquals(Optional.empty(), cache.get("a"));
        assertEquals(Optional.empty(), cache.get("b"));
    }

    @Test
    void anEntryExpiresAfterItsLifetimeEvenWhenNoChangeWasHeard() {
        cache.heard();
        cache.put("d1", AGENT, cache.stamp());

        for (int i = 0; i < 59; i++) { // the listener proves it hears every second meanwhile
            clock.advance(Duration.ofSeconds(1));
            cache.heard();
        }
        assertEquals(Optional.of(AGENT), cache.get("d1"));
        clock.advance(Duration.ofSeconds(1));
        cache.heard();
        assertEquals(Optional.empty(), cache.get("d1"));
    }

    @Test
    void aFullCacheStartsOverInsteadOfGrowing() {
        cache.heard();
        for (int i = 0; i < 10; i++) {
            cache.put("d" + i, AGENT, cache.stamp());
        }

        assertTrue(cache.size() <= 3, "bounded: " + cache.size());
        assertEquals(Optional.of(AGENT), cache.get("d9"), "the newest is kept");
    }

    @Test
    void aZeroLifetimeTurnsCachingOff() {
        CallerCache off = new CallerCache(Duration.ZERO, 3, Duration.ofSeconds(15), clock);
        off.heard();
        off.put("d1", AGENT, off.stamp());

        assertEquals(Optional.empty(), off.get("d1"));
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-12-01T10:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
