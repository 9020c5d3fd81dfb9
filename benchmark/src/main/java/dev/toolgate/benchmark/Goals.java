package dev.toolgate.benchmark;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The goals the gateway's figures are held against, each a ratio of two figures of the same run (so a
 * noisy machine moves both sides) and PASS or MISS. Reported, never asserted: timings are no test.
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
                g -> atLeast(g, "backlog on 2 instances faster than on 1", r.backlogOn(2).throughput().median(),
                        r.backlogOn(1).throughput().median() * 1.0001),
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

    static void print(List<Goal> goals) {
        System.out.printf("%ngoals (measured vs bound, ratio; reported, not asserted):%n");
        for (Goal g : goals) {
            System.out.printf("  %-52s %10.2f vs %10.2f  %6.2f  %s%n", g.name(), g.measured(), g.bound(), g.ratio(),
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
