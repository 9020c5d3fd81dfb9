package dev.toolgate.trace;

import java.time.Duration;

/**
 * When to try the collector again after failed exports. A collector that is down fails every export at
 * once, and the SDK's batch processor, with a full queue, exports again at once: connection attempts and
 * their error logs in a loop, on the cores the agents' calls need. So after a failure the next exports are
 * dropped without an attempt, for a pause that doubles with each failure in a row; a success ends it.
 */
record ExportBackoff(int failures) {

    static final Duration FIRST = Duration.ofSeconds(1);
    static final Duration LONGEST = Duration.ofSeconds(30);

    static ExportBackoff none() {
        return new ExportBackoff(0);
    }

    ExportBackoff failed() {
        return new ExportBackoff(Math.min(failures + 1, 16));
    }

    Duration pause() {
        if (failures == 0) {
            return Duration.ZERO;
        }
        Duration pause = FIRST.multipliedBy(1L << (failures - 1));
        return pause.compareTo(LONGEST) > 0 ? LONGEST : pause;
    }
}
