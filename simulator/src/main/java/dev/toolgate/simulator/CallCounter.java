package dev.toolgate.simulator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;

/** Counts, per external key, the creates and look-ups a simulated system received (faulted ones included). */
final class CallCounter {

    private final Map<String, AtomicIntegerArray> calls = new ConcurrentHashMap<>(); // key → {creates, lookups}

    void count(String key, boolean create) {
        if (key != null) {
            calls.computeIfAbsent(key, k -> new AtomicIntegerArray(2)).incrementAndGet(create ? 0 : 1);
        }
    }

    int[] of(String key) {
        AtomicIntegerArray counts = calls.get(key);
        return counts == null ? new int[2] : new int[] {counts.get(0), counts.get(1)};
    }

    void clear() {
        calls.clear();
    }
}
