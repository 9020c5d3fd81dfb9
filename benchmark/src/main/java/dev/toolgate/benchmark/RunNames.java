package dev.toolgate.benchmark;

import java.util.UUID;

/**
 * Names of runs, which the benchmark's idempotency keys carry ({@code …:<run>-<i>:v1}). Eight hex characters and
 * a letter: eight random hex characters are all decimal digits about once in forty, and then with a call's number
 * after a dash they can make 13–19 digits that pass Luhn, which the gateway refuses as a card number (422). The
 * letter ends the digit group, as a letter does for {@code CardNumbers}.
 */
final class RunNames {

    private RunNames() {
    }

    static String fresh() {
        return UUID.randomUUID().toString().substring(0, 8) + "r";
    }
}
