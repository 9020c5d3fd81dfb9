package dev.toolgate.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

class GoalsTest {

    @Test
    void theSystemsCpuIsEveryProcessButTheSimulatorsAndTheLoadGenerator() {
        Cell restate = cell("Restate: new", Map.of("Restate server", 1.5, "Restate endpoint", 2.0, "postgres", 0.25,
                "simulators", 9.0, "load generator", 9.0));
        assertEquals(3.75, Goals.system(restate), 1e-9);
    }

    @Test
    void theGatewayIsHeldToTheCheapestPeerMeasured() {
        Goals.Goal goal = goal(closedLoop(Map.of("gateway", 1.0, "postgres", 1.0),
                Map.of(Peers.DBOS, 5.0, Peers.RESTATE, 3.0)), "CPU/new at c=8, gateway+PostgreSQL <= best peer");
        assertEquals(2.0, goal.measured(), 1e-9);
        assertEquals(3.0, goal.bound(), 1e-9);
        assertTrue(goal.met());
    }

    @Test
    void aPeerThatDidNotRunLeavesThePeerGoalsToTheOther() {
        Goals.Goal goal = goal(closedLoop(Map.of("gateway", 2.0, "postgres", 1.5), Map.of(Peers.DBOS, 3.0)),
                "CPU/new at c=8, gateway+PostgreSQL <= best peer");
        assertEquals(3.0, goal.bound(), 1e-9);
        assertFalse(goal.met());
    }

    @Test
    void withoutPeersThePeerGoalsAreNotPrinted() {
        List<Goals.Goal> goals = Goals.of(results(closedLoop(Map.of("gateway", 1.0, "postgres", 1.0), Map.of())));
        assertTrue(goals.stream().noneMatch(g -> g.name().contains("peer")), goals.toString());
        assertTrue(goals.stream().anyMatch(g -> g.name().equals("gateway CPU/new at c=8 <= 0.7 ms")), goals.toString());
    }

    @Test
    void twoInstancesAreHeldToOnesCpuPerItemCountingEveryProcess() {
        Cell one = new Cell("reconcile backlog", "100, 1 instance", 1, List.of(new Load.Result(100, 1.0, new Histogram(3))),
                new Meter.Costs(new LinkedHashMap<>(Map.of("gateway", 1.0, "postgres", 1.0, "simulators", 0.5)), 1, 0.2, 0.2, 0));
        Cell two = new Cell("reconcile backlog", "100, 2 instances", 2, List.of(new Load.Result(100, 1.0, new Histogram(3))),
                new Meter.Costs(new LinkedHashMap<>(Map.of("gateway", 1.5, "postgres", 0.8, "simulators", 0.5)), 1, 0.2, 0.2, 0));
        Results results = new Results(Map.of(), Map.of(), List.of(), List.of(one, two), List.of(), List.of(), 0, 0,
                RunLength.quick(), List.of());
        assertMissed(named(results, "backlog item CPU, all processes, 2 instances <= 1 instance"), 2.8, 2.5);
    }

    @Test
    void aNewOperationAtC32IsHeldToATenthMoreGatewayCpuThanAtC8() {
        Map<String, List<Cell>> closed = closedLoop(Map.of("gateway", 0.6, "postgres", 0.7), Map.of());
        closed.put(Measurements.NEW, List.of(cell(Measurements.NEW, Map.of("gateway", 0.6, "postgres", 0.7)),
                cell(Measurements.NEW, 32, Map.of("gateway", 0.67, "postgres", 0.5))));
        assertMissed(goal(closed, "gateway CPU/new at c=32 <= 1.1 x c=8"), 0.67, 0.66);
    }

    @Test
    void theGatewaysResidentPeakIsHeldTo512MibAndLeftOutWhereNoneWasRead() {
        Map<String, List<Cell>> closed = closedLoop(Map.of("gateway", 0.6, "postgres", 0.7), Map.of());
        String name = "gateway resident memory at its peak <= 512 MiB";
        assertMissed(named(new Results(Map.of(), closed, List.of(), List.of(), List.of(), List.of(), 400 * 1024, 513 * 1024,
                RunLength.quick(), List.of()), name), 513, 512);
        assertTrue(Goals.of(results(closed)).stream().noneMatch(g -> g.name().equals(name)));
    }

    private static Goals.Goal goal(Map<String, List<Cell>> closed, String name) {
        return named(results(closed), name);
    }

    private static Goals.Goal named(Results results, String name) {
        return Goals.of(results).stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow();
    }

    private static void assertMissed(Goals.Goal goal, double measured, double bound) {
        assertEquals(measured, goal.measured(), 1e-9);
        assertEquals(bound, goal.bound(), 1e-9);
        assertFalse(goal.met());
    }

    /** The gateway's new operations and replays at c=8 costing {@code gateway}, and each peer costing its system CPU. */
    private static Map<String, List<Cell>> closedLoop(Map<String, Double> gateway, Map<String, Double> peers) {
        Map<String, List<Cell>> closed = new LinkedHashMap<>();
        closed.put(Measurements.NEW, List.of(cell(Measurements.NEW, gateway)));
        closed.put(Measurements.REPLAY, List.of(cell(Measurements.REPLAY, gateway)));
        peers.forEach((peer, ms) -> {
            closed.put(Measurements.peerNew(peer), List.of(cell(Measurements.peerNew(peer), Map.of(peer, ms, "simulators", 1.0))));
            closed.put(Measurements.peerReplay(peer), List.of(cell(Measurements.peerReplay(peer), Map.of(peer, ms))));
        });
        return closed;
    }

    private static Cell cell(String series, Map<String, Double> cpu) {
        return cell(series, 8, cpu);
    }

    private static Cell cell(String series, int c, Map<String, Double> cpu) {
        return new Cell(series, "c=" + c, c, List.of(new Load.Result(100, 1.0, new Histogram(3))),
                new Meter.Costs(new LinkedHashMap<>(cpu), 3, 2, 2, 1));
    }

    private static Results results(Map<String, List<Cell>> closed) {
        return new Results(Map.of(), closed, List.of(), List.of(), List.of(), List.of(), 0, 0, RunLength.quick(), List.of());
    }
}
