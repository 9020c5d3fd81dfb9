package dev.toolgate.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Authenticated callers by token digest, so a request does not read the principal table every time.
 * What makes that safe:
 * <ul>
 *   <li>it holds only what it is told about while it can hear changes: {@link #hearing} is true only
 *       while this instance listens for principal changes, and every change heard drops the principal
 *       at once ({@link #changed}); when the listener loses its connection everything is dropped and
 *       nothing is kept until it listens again, since changes made meanwhile went unheard;</li>
 *   <li>an entry lives at most {@code lifetime}, a bound for a change that was never announced;</li>
 *   <li>a caller read before a change is not stored after it: {@link #put} takes the {@link #stamp} read
 *       before the table was, and any change or loss of hearing in between moves the stamp on.</li>
 * </ul>
 * Only valid tokens are stored, so the size bound holds against a flood of made-up ones; when it is
 * reached the cache starts over, which costs one read per live caller.
 */
public final class CallerCache {

    private record Entry(Caller caller, Instant expires) {
    }

    private final Map<String, Entry> byDigest = new ConcurrentHashMap<>();
    private final AtomicLong stamp = new AtomicLong();
    private final Duration lifetime;
    private final int capacity;
    private final Clock clock;
    private volatile boolean hearing;

    public CallerCache(Duration lifetime, int capacity, Clock clock) {
        this.lifetime = lifetime;
        this.capacity = capacity;
        this.clock = clock;
    }

    /** The caller with this token digest, if stored and not expired. */
    public Optional<Caller> get(String digest) {
        Entry entry = byDigest.get(digest);
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

    /** Stores {@code caller} unless something changed since {@code stampBefore}, or changes cannot be heard. */
    public void put(String digest, Caller caller, long stampBefore) {
        if (!hearing || lifetime.isZero() || stamp.get() != stampBefore) {
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
        byDigest.values().removeIf(entry -> entry.caller().principalId().equals(principalId));
    }

    /** Changes can be heard from now on (the listener has just started listening). */
    public void hearing() {
        stamp.incrementAndGet();
        byDigest.clear(); // whatever changed before listening began went unheard
        hearing = true;
    }

    /** Changes can no longer be heard: nothing stored is trusted, nothing new is stored. */
    public void deaf() {
        hearing = false;
        stamp.incrementAndGet();
        byDigest.clear();
    }

    public boolean isHearing() {
        return hearing;
    }

    int size() {
        return byDigest.size();
    }
}
