package dev.toolgate.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * The keys an instance knows have a row: a key added is known to its tenant only; about the newest half of the
 * bound is held, and never more than the bound; a key added again takes no further place and is kept among the
 * newest; off at 0; a bound outside 0 to 16 Mi refused.
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
    void aKeyAddedAgainTakesNoFurtherPlace() {
        KnownKeys keys = new KnownKeys(64); // two keys a stripe's generation
        String first = "first";
        String again = inTheSameStripeAs(first);
        keys.add("acme", first);
        IntStream.range(0, 100).forEach(i -> keys.add("acme", again)); // held once: the generation is never full

        assertTrue(keys.known("acme", first));
        assertTrue(keys.known("acme", again));
    }

    @Test
    void aKeyAddedAgainIsKeptAmongTheNewest() {
        KnownKeys keys = new KnownKeys(64);
        String replayed = "replayed";
        String[] others = IntStream.range(0, 6).mapToObj(i -> inTheSameStripeAs(replayed, i)).toArray(String[]::new);
        keys.add("acme", replayed);
        for (String other : others) {
            keys.add("acme", other);
            keys.add("acme", replayed); // read again: back among the newest
        }

        assertTrue(keys.known("acme", replayed));
        assertFalse(keys.known("acme", others[0]), "a key not read again is forgotten");
    }

    @Test
    void aBoundOutsideItsRangeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new KnownKeys(-1));
        assertThrows(IllegalArgumentException.class, () -> new KnownKeys(KnownKeys.MAX_ENTRIES + 1));
    }

    @Test
    void keysAddedByThreadsAtOnceAreAllKnown() throws Exception {
        int threads = 4;
        int each = 5_000;
        KnownKeys keys = new KnownKeys(32 * threads * each); // no generation fills: every key added is held
        List<String> inOneStripe = IntStream.iterate(0, i -> i + 1).mapToObj(i -> "k-" + i)
                .filter(k -> KnownKeys.hash("acme", k) >>> 60 == 0).limit((long) threads * each).toList(); // all on one lock
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> adding = IntStream.range(0, threads).<Future<?>>mapToObj(t -> pool.submit(() -> {
                start.await();
                inOneStripe.subList(t * each, (t + 1) * each).forEach(k -> keys.add("acme", k));
                return null;
            })).toList();
            start.countDown();
            for (Future<?> f : adding) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertEquals(0, inOneStripe.stream().filter(k -> !keys.known("acme", k)).count(), "keys lost to a race");
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

    /** A key of tenant acme whose hash falls in {@code key}'s stripe. */
    private static String inTheSameStripeAs(String key) {
        return inTheSameStripeAs(key, 0);
    }

    /** The {@code n}th such key. */
    private static String inTheSameStripeAs(String key, int n) {
        long stripe = KnownKeys.hash("acme", key) >>> 60;
        return IntStream.iterate(0, i -> i + 1).mapToObj(i -> "k-" + i)
                .filter(k -> !k.equals(key) && KnownKeys.hash("acme", k) >>> 60 == stripe).skip(n).findFirst().orElseThrow();
    }
}
