package dev.toolgate.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The keys an instance knows have a row: a key added is known to its tenant only; about the newest half of the
 * bound is held, and never more than the bound; off at 0.
 */
class KnownKeysTest {

    @Test
    void aKeyAddedIsKnownAndOneNeverAddedIsNot() {
        KnownKeys keys = new KnownKeys(1_000);
        keys.add("acme", "k-1");

        assertTrue(keys.known("acme", "k-1"));
        assertFalse(keys.known("acme", "k-2"));
    }

    @Test
    void aKeyIsKnownToItsTenantOnly() {
        KnownKeys keys = new KnownKeys(1_000);
        keys.add("acme", "k-1");

        assertFalse(keys.known("globex", "k-1"));
        assertFalse(keys.known("acmek", "-1"), "the tenant and the key are not run together");
    }

    @Test
    void theNewestKeysAreHeldAndNeverMoreThanTheBound() {
        int bound = 3_200;
        KnownKeys keys = new KnownKeys(bound);
        int added = 10 * bound;
        IntStream.range(0, added).forEach(i -> keys.add("acme", "k-" + i));

        long held = IntStream.range(0, added).filter(i -> keys.known("acme", "k-" + i)).count();
        assertTrue(IntStream.range(added - bound / 4, added).allMatch(i -> keys.known("acme", "k-" + i)), "the newest quarter, whatever their stripes");
        assertTrue(held <= bound, held + " held");
        assertTrue(held >= bound / 2, held + " held");
        assertFalse(keys.known("acme", "k-0"), "the oldest is forgotten");
    }

    @Test
    void aKeyAddedAgainIsHeldOnce() {
        KnownKeys keys = new KnownKeys(64); // two a stripe's generation
        IntStream.range(0, 100).forEach(i -> keys.add("acme", "again"));
        keys.add("acme", "other");

        assertTrue(keys.known("acme", "again"));
        assertTrue(keys.known("acme", "other"));
    }

    @Test
    void atZeroNothingIsKnown() {
        KnownKeys keys = new KnownKeys(0);
        keys.add("acme", "k-1");

        assertFalse(keys.known("acme", "k-1"));
    }

    @Test
    void hashesOfNearKeysDifferAndAreNeverZero() {
        Set<Long> seen = new HashSet<>();
        IntStream.range(0, 100_000).forEach(i -> seen.add(KnownKeys.hash("acme", "bench:invoice.create:run-" + i + ":v1")));

        assertEquals(100_000, seen.size());
        assertFalse(seen.contains(0L));
        assertNotEquals(KnownKeys.hash("ab", "c"), KnownKeys.hash("a", "bc"));
    }
}
