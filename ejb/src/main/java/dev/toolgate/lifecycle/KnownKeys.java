package dev.toolgate.lifecycle;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Arrays;
import java.util.logging.Logger;

/**
 * Keys this instance has seen a journal row for, so the first look at one is a plain read by key ({@link FirstCapture})
 * rather than the capturing statement, which PostgreSQL sets up in full even when the row exists (docs/benchmark.md,
 * "Replays the memory no longer holds"): a replay {@link FinishedOperations} no longer holds is then one read by key.
 *
 * <p>Only a hint for which statement to send, never an answer: a key wrongly held known (purged since, or two keys
 * sharing a 64-bit hash) costs one read that finds nothing, then the capture; a known key forgotten costs the capture.
 *
 * <p>Bounded: {@code toolgate.known-keys.entries} (0: off; 2 MiB at the default) over {@link #STRIPES} stripes of two
 * generations; a full newer generation drops the older whole, so each stripe keeps at least its newest keys up to a
 * generation's size, about the newest half of the bound.
 */
@ApplicationScoped
public class KnownKeys {

    static final int STRIPES = 16;
    static final int DEFAULT_ENTRIES = 100_000;
    /** 16 Mi keys, 256 MiB of tables: a bound past it is a typo, not a plan. */
    static final int MAX_ENTRIES = 1 << 24;
    private static final Logger LOG = Logger.getLogger(KnownKeys.class.getName());

    private Stripe[] stripes = new Stripe[0];

    public KnownKeys() { // the container's
    }

    /** About {@code entries} keys at most (0 to {@link #MAX_ENTRIES}). */
    KnownKeys(int entries) {
        configure(entries);
    }

    @PostConstruct
    void read() {
        int entries = ConfigProvider.getConfig().getOptionalValue("toolgate.known-keys.entries", Integer.class).orElse(DEFAULT_ENTRIES);
        if (!fits(entries)) { // no call should fail or wait for it: said once, the default used
            LOG.severe("toolgate.known-keys.entries is not between 0 and " + MAX_ENTRIES + "; " + DEFAULT_ENTRIES + " are used instead");
            entries = DEFAULT_ENTRIES;
        }
        configure(entries);
    }

    private static boolean fits(int entries) {
        return entries >= 0 && entries <= MAX_ENTRIES;
    }

    private void configure(int entries) {
        if (!fits(entries)) {
            throw new IllegalArgumentException("between 0 and " + MAX_ENTRIES + " keys, not " + entries);
        }
        int perGeneration = (entries + 2 * STRIPES - 1) / (2 * STRIPES);
        stripes = new Stripe[entries > 0 ? STRIPES : 0];
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Stripe(perGeneration);
        }
    }

    /** True if {@code tenant}'s {@code key} had a row when this instance last looked, as far as it remembers. */
    public boolean known(String tenant, String key) {
        if (stripes.length == 0) {
            return false;
        }
        long hash = hash(tenant, key);
        return stripe(hash).contains(hash);
    }

    public void add(String tenant, String key) {
        if (stripes.length == 0) {
            return;
        }
        long hash = hash(tenant, key);
        stripe(hash).add(hash);
    }

    private Stripe stripe(long hash) {
        return stripes[(int) (hash >>> 60)]; // the top bits; a stripe's table indexes by the low ones
    }

    /** 64-bit FNV-1a over the tenant, a separator and the key; mixed, and never 0 (an empty slot). */
    static long hash(String tenant, String key) {
        long h = 0xcbf29ce484222325L;
        h = fnv(h, tenant);
        h = (h ^ 0xffff) * 0x100000001b3L;
        h = fnv(h, key);
        h ^= h >>> 33; // MurmurHash3's finalizer: FNV's low bits vary too little for a table's index
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h == 0 ? 1 : h;
    }

    private static long fnv(long h, String text) {
        for (int i = 0; i < text.length(); i++) {
            h = (h ^ text.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    /** One lock's share: two open-addressed tables of hashes, the newer filled up to {@code capacity}, then swapped. */
    private static final class Stripe {

        private final int capacity;
        private long[] newer;
        private long[] older;
        private int size;

        Stripe(int capacity) {
            this.capacity = capacity;
            int slots = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) * 2; // at most half full
            newer = new long[slots];
            older = new long[slots];
        }

        synchronized boolean contains(long hash) {
            return slot(newer, hash) >= 0 || slot(older, hash) >= 0;
        }

        synchronized void add(long hash) {
            if (slot(newer, hash) >= 0) {
                return;
            }
            if (size == capacity) {
                long[] dropped = older;
                older = newer;
                Arrays.fill(dropped, 0);
                newer = dropped;
                size = 0;
            }
            int i = (int) hash & (newer.length - 1);
            while (newer[i] != 0) {
                i = (i + 1) & (newer.length - 1);
            }
            newer[i] = hash;
            size++;
        }

        private static int slot(long[] table, long hash) {
            int i = (int) hash & (table.length - 1);
            while (table[i] != 0) {
                if (table[i] == hash) {
                    return i;
                }
                i = (i + 1) & (table.length - 1);
            }
            return -1;
        }
    }
}
