package dev.toolgate.benchmark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.canonical.CardNumbers;

import org.junit.jupiter.api.Test;

class RunNamesTest {

    @Test
    void aKeyMadeOfAllDigitRunNameAndACallNumberCouldPassForACardNumber() {
        // how the benchmark died once: eight hex characters that were all digits, a round, a call number
        assertTrue(CardNumbers.contains("bench:invoice.create:warm-83920174-1-10030:v1"));
    }

    @Test
    void noKeyTheBenchmarkMakesFromARunNameLooksLikeACardNumber() {
        for (int n = 0; n < 2_000; n++) {
            String run = RunNames.fresh();
            String allDigits = "83920174" + run.substring(8); // the worst name: eight decimal digits
            for (int i = 0; i < 100_000; i += 997) {
                for (String name : new String[] {run, allDigits}) {
                    assertFalse(CardNumbers.contains("bench:invoice.create:" + name + "-" + i + ":v1"), name + " " + i);
                    assertFalse(CardNumbers.contains("bench:invoice.create:warm-" + name + "-round" + n % 20 + "-" + i + ":v1"));
                    assertFalse(CardNumbers.contains("bench:invoice.create:mcp-" + name + "-" + i + ":v1"));
                }
            }
        }
    }
}
