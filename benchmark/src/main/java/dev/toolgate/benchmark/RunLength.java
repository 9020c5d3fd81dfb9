package dev.toolgate.benchmark;

import java.time.Duration;
import java.util.List;

/**
 * How long and how often each thing is measured. The full run is the honest one; the quick run
 * ({@code -Dbench.quick=true}) only shows the benchmark still works and its figures mean little.
 */
record RunLength(Duration warmUp, int repeats, Duration cell, Duration openLoopCell, int backlog, List<Integer> journalSizes) {

    /** At least 30 s of warm-up (then on while the JIT is busy, {@link WarmUp}): the hot path compiled, the pools full. */
    static RunLength full() {
        return new RunLength(Duration.ofSeconds(30), 3, Duration.ofSeconds(4), Duration.ofSeconds(8), 10_000,
                List.of(10_000, 1_000_000));
    }

    static RunLength quick() {
        return new RunLength(Duration.ofSeconds(3), 1, Duration.ofMillis(1500), Duration.ofSeconds(2), 1_000,
                List.of(10_000, 50_000));
    }

    /** The run length asked for; {@code -Dbench.backlog=N} sizes the backlog series apart from it (for development). */
    static RunLength chosen() {
        RunLength chosen = Boolean.getBoolean("bench.quick") ? quick() : full();
        int backlog = Integer.getInteger("bench.backlog", 0);
        backlog = backlog > 0 ? backlog : chosen.backlog();
        return new RunLength(chosen.warmUp(), chosen.repeats(), chosen.cell(), chosen.openLoopCell(), backlog, chosen.journalSizes());
    }

    boolean isQuick() {
        return repeats == 1;
    }
}
