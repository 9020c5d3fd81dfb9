package dev.toolgate.benchmark;

import java.util.List;
import java.util.Map;

/** Everything one run measured, with the server settings it ran under and how long each instance was warmed up. */
record Results(Map<String, String> settings, Map<String, List<Cell>> closedLoop, List<Cell> openLoop, List<Cell> backlog,
               List<Cell> growth, List<Cell> tracing, long idleKb, long peakKb, RunLength length,
               List<Long> warmUpSeconds) {

    /** The closed-loop cell of {@code series} at concurrency {@code c}. */
    Cell at(String series, int c) {
        return closedLoop.getOrDefault(series, List.of()).stream().filter(cell -> cell.concurrency() == c).findFirst().orElseThrow();
    }

    /** The tracing cell of {@code series} ("new, tracing off", …). */
    Cell traced(String series) {
        return tracing.stream().filter(cell -> cell.series().equals(series)).findFirst().orElseThrow();
    }

    Cell backlogOn(int instances) {
        return backlog.stream().filter(cell -> cell.concurrency() == instances).findFirst().orElseThrow();
    }
}
