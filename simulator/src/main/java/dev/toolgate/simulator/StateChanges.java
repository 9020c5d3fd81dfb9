package dev.toolgate.simulator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Counts, per kind and object id, the requests that moved an existing object into a state (a document
 * posted, an invoice cancelled, a deal lost) and those that found it there already. The second number is
 * how a test sees a blind re-send: the state is the same, but the system was written to again (a re-post
 * re-writes a document's movements; a repeated status write replaces the record).
 */
final class StateChanges {

    private final Map<String, AtomicIntegerArray> counts = new ConcurrentHashMap<>(); // kind + object → {changed, repeated}

    /** One request that set {@code kind} on {@code object}; {@code already} when the object was in that state before. */
    void count(String kind, String object, boolean already) {
        counts.computeIfAbsent(kind + " " + object, k -> new AtomicIntegerArray(2)).incrementAndGet(already ? 1 : 0);
    }

    /** {changed, repeated} for {@code kind} on {@code object}. */
    int[] of(String kind, String object) {
        AtomicIntegerArray c = counts.get(kind + " " + object);
        return c == null ? new int[2] : new int[] {c.get(0), c.get(1)};
    }

    void clear() {
        counts.clear();
    }
}
