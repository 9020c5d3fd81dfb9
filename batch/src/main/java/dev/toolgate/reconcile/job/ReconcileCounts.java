package dev.toolgate.reconcile.job;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/** Outcome counts of a reconcile run, as kept in the step's persistent user data. */
public final class ReconcileCounts {

    private ReconcileCounts() {
    }

    @SuppressWarnings("unchecked")
    public static TreeMap<String, Integer> of(Serializable userData) {
        return userData instanceof Map<?, ?> map ? new TreeMap<>((Map<String, Integer>) map) : new TreeMap<>();
    }
}
