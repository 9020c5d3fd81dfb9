package dev.toolgate.trace;

import java.time.Duration;

/**
 * A collector that is down fails every export at once and the SDK's full queue exports again at once: a loop on the
 * agents' cores. So after a failure exports are dropped for a pause that doubles per failure; a success ends it.
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
