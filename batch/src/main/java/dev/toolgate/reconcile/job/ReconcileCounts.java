package dev.toolgate.reconcile.job;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Outcome counts of a reconcile run, kept per tenant in a step's persistent user data: a run works every tenant's
 * operations, and each tenant's people may see only their own counts. The run's span, which no tenant reads, carries
 * the totals.
 */
public final class ReconcileCounts {

    private ReconcileCounts() {
    }

    /** tenant → outcome → count, from a step's user data; anything else (none yet, a run recorded before tenants were kept) is empty. */
    public static TreeMap<String, TreeMap<String, Integer>> of(Serializable userData) {
        TreeMap<String, TreeMap<String, Integer>> counts = new TreeMap<>();
        if (userData instanceof Map<?, ?> map) {
            map.forEach((tenant, outcomes) -> {
                if (tenant instanceof String name && outcomes instanceof Map<?, ?> byOutcome) {
                    TreeMap<String, Integer> own = counts.computeIfAbsent(name, t -> new TreeMap<>());
                    byOutcome.forEach((outcome, count) -> {
                        if (outcome instanceof String o && count instanceof Integer c) {
                            own.merge(o, c, Integer::sum);
                        }
                    });
                }
            });
        }
        return counts;
    }

    public static void add(TreeMap<String, TreeMap<String, Integer>> counts, String tenant, String outcome, int count) {
        counts.computeIfAbsent(tenant, t -> new TreeMap<>()).merge(outcome, count, Integer::sum);
    }

    public static void addTenant(Serializable userData, String tenant, Map<String, Integer> into) {
        of(userData).getOrDefault(tenant, new TreeMap<>()).forEach((outcome, count) -> into.merge(outcome, count, Integer::sum));
    }

    /** Every tenant's counts summed: for the run's span only. */
    public static TreeMap<String, Integer> totals(Serializable userData) {
        TreeMap<String, Integer> totals = new TreeMap<>();
        of(userData).values().forEach(outcomes -> outcomes.forEach((outcome, count) -> totals.merge(outcome, count, Integer::sum)));
        return totals;
    }
}
