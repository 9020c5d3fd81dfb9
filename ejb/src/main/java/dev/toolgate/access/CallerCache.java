package dev.toolgate.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Authenticated callers by token digest, so a request does not read the principal table every time. Safe because:
 * it is used only while the listener proves it hears changes ({@link #heard}), and a lost connection drops
 * everything; an entry lives at most {@code lifetime}, a bound for a change never announced; and {@link #put} takes
 * the {@link #stamp} read before the table, so a caller read before a change is not stored after it. Only valid
 * tokens are stored, so the size bound holds against a flood of made-up ones.
 */
public final class CallerCache {

    private record Entry(Caller caller, Instant expires) {
    }

    private final Map<String, Entry> byDigest = new ConcurrentHashMap<>();
    private final AtomicLong stamp = new AtomicLong();
    /** A principal id no principal has: a change to all of them (the table truncated). */
    public static final String EVERYONE = "*";

    private final Duration lifetime;
    private final int capacity;
    private final Duration hearingLapse;
    private final Clock clock;
    private volatile Instant heardAt = Instant.MIN;

    public CallerCache(Duration lifetime, int capacity, Duration hearingLapse, Clock clock) {
        this.lifetime = lifetime;
        this.capacity = capacity;
        this.hearingLapse = hearingLapse;
        this.clock = clock;
    }

    public Optional<Caller> get(String digest) {
        Entry entry = isHearing() ? byDigest.get(digest) : null;
        if (entry == null) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(entry.expires())) {
            byDigest.remove(digest, entry);
            return Optional.empty();
        }
        return Optional.of(entry.caller());
    }

    /** To be read before the principal table is, and handed to {@link #put} with what it returned. */
    public long stamp() {
        return stamp.get();
    }

    public void put(String digest, Caller caller, long stampBefore) {
        if (!isHearing() || lifetime.isZero() || stamp.get() != stampBefore) {
            return;
        }
        if (byDigest.size() >= capacity) {
            byDigest.clear();
        }
        byDigest.put(digest, new Entry(caller, clock.instant().plus(lifetime)));
        if (stamp.get() != stampBefore) { // a change landed while storing: it may have missed this entry
            byDigest.remove(digest);
        }
    }

    /** A principal was changed (rotated, revoked, anything): none of its callers may be served from here. */
    public void changed(String principalId) {
        stamp.incrementAndGet();
        if (EVERYONE.equals(principalId)) {
            byDigest.clear();
        } else {
            byDigest.values().removeIf(entry -> entry.caller().principalId().equals(principalId));
        }
    }

    /** Coming out of silence (deaf, or past the lapse) the cache starts empty. */
    public void heard() {
        if (!isHearing()) {
            stamp.incrementAndGet();
            byDigest.clear();
        }
        heardAt = clock.instant();
    }

    /** Changes can no longer be heard: nothing stored is trusted, nothing new is stored. */
    public void deaf() {
        heardAt = Instant.MIN;
        stamp.incrementAndGet();
        byDigest.clear();
    }

    public boolean isHearing() {
        Instant heard = heardAt;
        return !heard.equals(Instant.MIN) && clock.instant().isBefore(heard.plus(hearingLapse));
    }

    int size() {
        return byDigest.size();
    }
}
