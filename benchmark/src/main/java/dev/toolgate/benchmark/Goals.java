package dev.toolgate.benchmark;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * The goals the gateway's figures are held against, each a ratio of two figures of the same run (so a
 * noisy machine moves both sides) and PASS or MISS. Reported, never asserted: timings are no test.
 */
final class Goals {

    record Goal(String name, double measured, double bound, double ratio, boolean met) {
    }

    private Goals() {
    }

    static List<Goal> of(Results r) {
        List<Goal> goals = new ArrayList<>();
        double newAt8 = r.at(Measurements.NEW, 8).throughput().median();
        double jdbcNewAt8 = r.at(Measurements.JDBC_NEW, 8).throughput().median();
        atLeast(goals, "new ops/s at c=8 >= 0.5 x JDBC new", newAt8, 0.5 * jdbcNewAt8);
        atLeast(goals, "new ops/s rises from c=8 to c=32", r.at(Measurements.NEW, 32).throughput().median(), newAt8 * 1.0001);
        atLeast(goals, "replay ops/s at c=8 >= 0.8 x one-PK-read floor", r.at(Measurements.REPLAY, 8).throughput().median(),
                0.8 * r.at(Measurements.READ, 8).throughput().median());
        double direct = r.at(Measurements.DIRECT, 1).p50().median();
        atMost(goals, "replay p50 at c=1 <= direct + 1 ms", r.at(Measurements.REPLAY, 1).p50().median(), direct + 1);
        atMost(goals, "new p50 at c=1 <= direct + JDBC new + 1 ms", r.at(Measurements.NEW, 1).p50().median(),
                direct + r.at(Measurements.JDBC_NEW, 1).p50().median() + 1);
        atMost(goals, "MCP replay p50 at c=1 <= 1.3 x REST replay", r.at(Measurements.MCP_REPLAY, 1).p50().median(),
                1.3 * r.at(Measurements.REPLAY, 1).p50().median());
        double one = r.backlogOn(1).throughput().median();
        atLeast(goals, "backlog (" + r.backlogOn(1).load().replace(", 1 instance", "") + " unknown) on 1 instance >= 1,000/s",
                one, 1000);
        atLeast(goals, "backlog on 2 instances faster than on 1", r.backlogOn(2).throughput().median(), one * 1.0001);
        // against the live collector: what tracing itself costs is in both, what a dead collector adds is the question
        double live = r.traced("new, " + Measurements.TRACING_ON).throughput().median();
        atLeast(goals, "new ops/s at c=8, collector down >= 0.9 x live collector",
                r.traced("new, " + Measurements.TRACING_DEAD).throughput().median(), 0.9 * live);
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
