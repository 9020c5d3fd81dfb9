package dev.toolgate.launcher;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * How long to wait for a process to become ready, judged by the CPU it has had rather than by the clock alone. A
 * process started at low priority on cores other work keeps busy (the quick benchmark beside the it module's suites,
 * docs/testing.md) is not slow, it is waiting for a turn: a start of 1.3 s of CPU took 22 s by the clock beside four
 * busy loops. So {@code cpu} bounds the work a start may take before it has failed, and {@code wall}, far longer,
 * bounds only a process that neither works nor gets ready: one that is hung.
 */
record StartPatience(Duration cpu, Duration wall) {

    enum Verdict { WAIT, CPU_SPENT, WALL_SPENT }

    /** @param cpuUsed the process's CPU time so far, or null where the platform cannot tell: then each second waited counts */
    Verdict judge(Duration cpuUsed, Duration waited) {
        Duration worked = cpuUsed == null ? waited : cpuUsed;
        if (worked.compareTo(cpu) >= 0) {
            return Verdict.CPU_SPENT;
        }
        return waited.compareTo(wall) >= 0 ? Verdict.WALL_SPENT : Verdict.WAIT;
    }

    /** Empty while {@code process}, waited for since {@code since}, should be waited for; else how long, for a failure's message. */
    Optional<String> exhausted(Process process, Instant since) {
        Duration waited = Duration.between(since, Instant.now());
        Duration worked = process.toHandle().info().totalCpuDuration().orElse(null);
        Verdict verdict = judge(worked, waited);
        if (verdict == Verdict.WAIT) {
            return Optional.empty();
        }
        return Optional.of(seconds(waited) + " by the clock and " + (worked == null ? "an unknown CPU time" : seconds(worked)
                + " of its CPU") + (verdict == Verdict.CPU_SPENT ? " (it had its CPU and was not ready)"
                : " (it neither works nor gets ready: hung)"));
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
