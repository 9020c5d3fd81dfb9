package dev.toolgate.reconcile.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

class ReconcileCountsTest {

    private static TreeMap<String, TreeMap<String, Integer>> run() {
        TreeMap<String, TreeMap<String, Integer>> counts = new TreeMap<>();
        ReconcileCounts.add(counts, "acme", "found", 1);
        ReconcileCounts.add(counts, "acme", "found", 1);
        ReconcileCounts.add(counts, "acme", "waiting", 1);
        ReconcileCounts.add(counts, "globex", "found", 1);
        return counts;
    }

    @Test
    void aTenantReadsOnlyItsOwnCounts() {
        TreeMap<String, Integer> acme = new TreeMap<>();
        ReconcileCounts.addTenant(run(), "acme", acme);
        TreeMap<String, Integer> globex = new TreeMap<>();
        ReconcileCounts.addTenant(run(), "globex", globex);
        TreeMap<String, Integer> initech = new TreeMap<>();
        ReconcileCounts.addTenant(run(), "initech", initech);

        assertEquals(Map.of("found", 2, "waiting", 1), acme);
        assertEquals(Map.of("found", 1), globex);
        assertEquals(Map.of(), initech);
    }

    @Test
    void theRunsSpanCarriesEveryTenantSummed() {
        assertEquals(Map.of("found", 3, "waiting", 1), ReconcileCounts.totals(run()));
    }

    @Test
    void stepsAddUpForOneTenant() {
        TreeMap<String, TreeMap<String, Integer>> advance = new TreeMap<>();
        ReconcileCounts.add(advance, "acme", "processes_checked", 4);
        TreeMap<String, Integer> acme = new TreeMap<>();
        ReconcileCounts.addTenant(run(), "acme", acme);
        ReconcileCounts.addTenant(advance, "acme", acme);

        assertEquals(Map.of("found", 2, "waiting", 1, "processes_checked", 4), acme);
    }

    @Test
    void userDataOfAnyOtherShapeCountsNothing() {
        TreeMap<String, Integer> flat = new TreeMap<>(Map.of("found", 7)); // a run kept before counts were per tenant
        assertEquals(Map.of(), ReconcileCounts.of(flat));
        assertEquals(Map.of(), ReconcileCounts.of(null));
        assertEquals(Map.of(), ReconcileCounts.totals("found"));
    }
}
