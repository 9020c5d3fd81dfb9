package dev.toolgate.benchmark;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One series at one load (a concurrency, or an arrival rate), measured {@code runs.size()} times in a row: each figure
 * the median of the runs with their min–max as its spread, the costs over all runs together.
 */
record Cell(String series, String load, int concurrency, List<Load.Result> runs, Meter.Costs costs) {

    record Figure(double median, double min, double max) {
    }

    Figure figure(ToDoubleFunction<Load.Result> of) {
        double[] values = runs.stream().mapToDouble(of).sorted().toArray();
        int n = values.length;
        double median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
        return new Figure(median, values[0], values[n - 1]);
    }

    Figure throughput() {
        return figure(Load.Result::throughput);
    }

    Figure p50() {
        return figure(r -> r.millis(50));
    }

    Figure p99() {
        return figure(r -> r.millis(99));
    }

    Figure max() {
        return figure(Load.Result::maxMillis);
    }

    long calls() {
        return runs.stream().mapToLong(Load.Result::calls).sum();
    }
}
