package dev.toolgate.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Counts, per external key, the creates and look-ups a simulated system received (faulted ones included), and keeps
 * each create with the fault it met, so a fault checker tells a second send of one key from a retry of a refused one.
 */
final class CallCounter {

    private final Map<String, AtomicIntegerArray> calls = new ConcurrentHashMap<>(); // key → {creates, lookups}
    private final Map<String, List<Create>> creates = new ConcurrentHashMap<>();

    /** One create request: the fault it met ({@code null}: none), and whether the system may repeat it safely. */
    record Create(Fault.Kind fault, boolean repeatable) {

        /** Whether the system's own work saw the request (and so may have made its effect). */
        boolean reachedWork() {
            return fault == null || switch (fault) {
                case RESET_BEFORE_COMMIT, STATUS, WRONG_SHAPE -> false;
                default -> true;
            };
        }
    }

    /** A request for {@code key} that met {@code fault} (null: none); {@code repeatable}: a create the system deduplicates by design. */
    void count(String key, boolean create, Fault fault, boolean repeatable) {
        if (key == null) {
            return;
        }
        calls.computeIfAbsent(key, k -> new AtomicIntegerArray(2)).incrementAndGet(create ? 0 : 1);
        if (create) {
            List<Create> list = creates.computeIfAbsent(key, k -> new ArrayList<>());
            synchronized (list) {
                list.add(new Create(fault == null ? null : fault.kind(), repeatable));
            }
        }
    }

    void count(String key, boolean create, Fault fault) {
        count(key, create, fault, false);
    }

    int[] of(String key) {
        AtomicIntegerArray counts = calls.get(key);
        return counts == null ? new int[2] : new int[] {counts.get(0), counts.get(1)};
    }

    List<Create> creates(String key) {
        List<Create> list = creates.getOrDefault(key, List.of());
        synchronized (list) {
            return List.copyOf(list);
        }
    }

    void clear() {
        calls.clear();
        creates.clear();
    }
}
