package dev.toolgate.benchmark;

import java.time.Duration;

/**
 * When a gateway is warm enough to measure: after at least the run's warm-up, once its JIT compiler threads
 * spent under {@link #QUIET_SHARE} of one core in the last {@link #ROUND} — or after {@link #LONGEST} whatever
 * they do. A fixed warm-up leaves the compiler threads busy into the first cells on two cores, which then measure a
 * half-compiled server and charge the JIT's CPU to each operation.
 */
final class WarmUp {

    /** One round of load between two readings of the compiler threads' CPU. */
    static final Duration ROUND = Duration.ofSeconds(10);
    /** 2% of a core: recompilations after a deoptimization never quite stop. */
    static final double QUIET_SHARE = 0.02;
    /** The JIT of a server that is still busy after this is part of what is measured. */
    static final Duration LONGEST = Duration.ofSeconds(180);
    /** Restarted simulators: their paths are few, and the gateway they serve is warm already. */
    static final Duration SIMULATORS_LONGEST = Duration.ofSeconds(60);

    private final Duration least;
    private final Duration longest;

    /** A quick run (whose figures mean little anyway) stops at its minimum rather than waiting for a quiet JIT. */
    WarmUp(Duration least, boolean quick) {
        this(least, quick ? least : LONGEST);
    }

    private WarmUp(Duration least, Duration longest) {
        this.least = least;
        this.longest = longest;
    }

    /**
     * Simulators just restarted, which cold spend several times a warm one's CPU per call on the gateway's cores: one
     * round at least, then until their JIT is quiet. A quick run warms them as long as the gateway.
     */
    static WarmUp simulators(RunLength length) {
        return length.isQuick() ? new WarmUp(length.warmUp(), true) : new WarmUp(ROUND, SIMULATORS_LONGEST);
    }

    /** How long one round of load runs: {@link #ROUND}, or the minimum when that is shorter. */
    Duration round() {
        return least.compareTo(ROUND) < 0 ? least : ROUND;
    }

    /** Whether to stop after {@code elapsed} of load, the compiler threads having spent {@code compilerMillis} in the last round. */
    boolean done(Duration elapsed, double compilerMillis) {
        if (elapsed.compareTo(least) < 0) {
            return false;
        }
        return compilerMillis < QUIET_SHARE * round().toMillis() || elapsed.compareTo(longest) >= 0;
    }

    /** One round of load, {@code length} long; {@code run} names it, so the keys it creates are its own. */
    @FunctionalInterface
    interface Round {
        void run(String run, Duration length) throws Exception;
    }
}
