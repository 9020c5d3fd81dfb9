package dev.toolgate.lifecycle.decisions;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a person must decide ({@link EscalationRule}). */
class EscalationRuleTest {

    @Test
    void aDuplicateEscalatesAtOnce() {
        assertTrue(EscalationRule.escalates(true, 1, 10));
    }

    @Test
    void lookUpsThatCannotSettleEscalateAtTheLimitAndNotBefore() {
        assertFalse(EscalationRule.escalates(false, 9, 10));
        assertTrue(EscalationRule.escalates(false, 10, 10));
    }
}
