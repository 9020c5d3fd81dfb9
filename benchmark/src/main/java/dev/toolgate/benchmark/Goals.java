package dev.toolgate.benchmark;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.NoSuchElementException;

/**
 * The goals the gateway's figures are held against, and PASS or MISS: CPU per operation (budgets, and ratios to the
 * peers' in the same run) first, then throughput and latency against the same run's floors, each group's why beside
 * it. Reported, never asserted: timings are no test.
 */
final class Goals {

    record Goal(String name, double measured, double bound, double ratio, boolean met) {
    }

    private Goals() {
    }

    /** One goal, from the run's cells; a goal whose series this run left out ({@code -Dbench.series}) is not printed. */
    private interface Measured {
        void add(List<Goal> goals);
    }

    static List<Goal> of(Results r) {
        List<Goal> goals = new ArrayList<>();
        for (Measured goal : List.<Measured>of(
                // CPU per operation, which two shared cores can judge (a ratio of throughputs there measures the machine)
                g -> atMost(g, "CPU/new at c=8, gateway+PostgreSQL <= best peer", system(r.at(Measurements.NEW, 8)),
                        bestPeer(r, Measurements::peerNew)),
                g -> atMost(g, "CPU/replay at c=8, gateway+PostgreSQL <= best peer", system(r.at(Measurements.REPLAY, 8)),
                        bestPeer(r, Measurements::peerReplay)),
                g -> atMost(g, "CPU/replay of a recent key at c=8, gateway+PostgreSQL <= best peer",
                        system(r.at(Measurements.REPLAY_RECENT, 8)), bestPeer(r, Measurements::peerReplay)),
                g -> atMost(g, "gateway CPU/new at c=8 <= 0.7 ms", process(r.at(Measurements.NEW, 8), GATEWAY), 0.7),
                g -> atMost(g, "gateway CPU/replay at c=8 <= 0.3 ms", process(r.at(Measurements.REPLAY, 8), GATEWAY), 0.3),
                g -> atMost(g, "gateway CPU/new at c=8, REST <= MCP", process(r.at(Measurements.NEW, 8), GATEWAY),
                        process(r.at(Measurements.MCP_NEW, 8), GATEWAY)),
                g -> atMost(g, "gateway CPU/replay at c=8, REST <= MCP", process(r.at(Measurements.REPLAY, 8), GATEWAY),
                        process(r.at(Measurements.MCP_REPLAY, 8), GATEWAY)),
                g -> atMost(g, "PostgreSQL CPU/new at c=8 <= 0.75 ms", process(r.at(Measurements.NEW, 8), POSTGRES), 0.75),
                g -> atMost(g, "gateway CPU/new at c=32 <= 1.1 x c=8", process(r.at(Measurements.NEW, 32), GATEWAY),
                        1.1 * process(r.at(Measurements.NEW, 8), GATEWAY)),
                g -> atMost(g, "gateway resident memory at its peak <= 512 MiB", peakMib(r), 512),
                g -> atMost(g, "backlog item CPU, all processes, 1 instance <= 2.5 ms", all(r.backlogOn(1)), 2.5),
                g -> atMost(g, "backlog item commits, 1 instance <= 1.1", r.backlogOn(1).costs().commits(), 1.1),
                g -> atLeast(g, "backlog on 2 instances no slower than on 1", r.backlogOn(2).throughput().median(),
                        r.backlogOn(1).throughput().median()),
                g -> atMost(g, "backlog item CPU, all processes, 2 instances <= 1 instance", all(r.backlogOn(2)),
                        all(r.backlogOn(1))),
                // throughput and latency against the floors of the same run: machine-bound on two shared cores
                g -> atLeast(g, "new ops/s at c=8 >= 0.5 x JDBC new", r.at(Measurements.NEW, 8).throughput().median(),
                        0.5 * r.at(Measurements.JDBC_NEW, 8).throughput().median()),
                g -> atLeast(g, "new ops/s rises from c=8 to c=32", r.at(Measurements.NEW, 32).throughput().median(),
                        r.at(Measurements.NEW, 8).throughput().median() * 1.0001),
                g -> atLeast(g, "replay ops/s at c=8 >= 0.8 x one-PK-read floor", r.at(Measurements.REPLAY, 8).throughput().median(),
                        0.8 * r.at(Measurements.READ, 8).throughput().median()),
                g -> atMost(g, "replay p50 at c=1 <= direct + 1 ms", r.at(Measurements.REPLAY, 1).p50().median(),
                        r.at(Measurements.DIRECT, 1).p50().median() + 1),
                g -> atMost(g, "new p50 at c=1 <= direct + JDBC new + 1 ms", r.at(Measurements.NEW, 1).p50().median(),
                        r.at(Measurements.DIRECT, 1).p50().median() + r.at(Measurements.JDBC_NEW, 1).p50().median() + 1),
                g -> atMost(g, "MCP replay p50 at c=1 <= 1.3 x REST replay", r.at(Measurements.MCP_REPLAY, 1).p50().median(),
                        1.3 * r.at(Measurements.REPLAY, 1).p50().median()),
                g -> atLeast(g, "backlog (" + r.backlogOn(1).load().replace(", 1 instance", "") + " unknown) on 1 instance >= 1,000/s",
                        r.backlogOn(1).throughput().median(), 1000),
                // against the live collector: what tracing itself costs is in both, what a dead collector adds is the question
                g -> atLeast(g, "new ops/s at c=8, collector down >= 0.9 x live collector",
                        r.traced("new, " + Measurements.TRACING_DEAD).throughput().median(),
                        0.9 * r.traced("new, " + Measurements.TRACING_ON).throughput().median()))) {
            try {
                goal.add(goals);
            } catch (NoSuchElementException notRun) {
                // a partial run: this goal's series were not measured
            }
        }
        return goals;
    }

    private static final String GATEWAY = "gateway";
    private static final String POSTGRES = "postgres";
    /** Processes outside the system under test: the target every system calls, and the load generator. */
    private static final Set<String> NOT_THE_SYSTEM = Set.of("simulators", "load generator");

    /** CPU per operation of the system under test: every process of the cell but the simulators and the load generator. */
    static double system(Cell c) {
        return c.costs().cpuMillis().entrySet().stream().filter(e -> !NOT_THE_SYSTEM.contains(e.getKey()))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /** The first gateway's resident peak over the run, in MiB; the goal is left out where none was read. */
    private static double peakMib(Results r) {
        if (r.peakKb() <= 0) {
            throw new NoSuchElementException("no resident peak");
        }
        return r.peakKb() / 1024.0;
    }

    private static double all(Cell c) {
        return c.costs().cpuMillis().values().stream().mapToDouble(Double::doubleValue).sum();
    }

    private static double process(Cell c, String name) {
        Double ms = c.costs().cpuMillis().get(name);
        if (ms == null) {
            throw new NoSuchElementException(name);
        }
        return ms;
    }

    /** The lowest system CPU per operation among the peers measured at c=8 in {@code series}. */
    private static double bestPeer(Results r, Function<String, String> series) {
        double best = Double.MAX_VALUE;
        for (String peer : Measurements.PEERS) {
            if (r.closedLoop().containsKey(series.apply(peer))) {
                best = Math.min(best, system(r.at(series.apply(peer), 8)));
            }
        }
        if (best == Double.MAX_VALUE) {
            throw new NoSuchElementException("no peer measured");
        }
        return best;
    }

    static void print(List<Goal> goals) {
        System.out.printf("%ngoals (measured vs bound, ratio; reported, not asserted):%n");
        for (Goal g : goals) {
            System.out.printf("  %-56s %10.2f vs %10.2f  %6.2f  %s%n", g.name(), g.measured(), g.bound(), g.ratio(),
                    g.met() ? "PASS" : "MISS");
        }
    }

    static JsonArrayBuilder json(List<Goal> goals) {
        JsonArrayBuilder all = Json.createArrayBuilder();
        goals.forEach(g -> all.add(Json.createObjectBuilder().add("goal", g.name()).add("measured", round(g.measured()))
                .add("bound", round(g.bound())).add("ratio", round(g.ratio())).add("met", g.met())));
        return all;
    }

    /** Higher is better: ratio measured ÷ bound, met at 1 or more. */
    private static void atLeast(List<Goal> goals, String name, double measured, double bound) {
        goals.add(new Goal(name, measured, bound, measured / bound, measured >= bound));
    }

    /** Lower is better: ratio bound ÷ measured, so that here too 1 or more is met. */
    private static void atMost(List<Goal> goals, String name, double measured, double bound) {
        goals.add(new Goal(name, measured, bound, bound / measured, measured <= bound));
    }

    static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
