package dev.toolgate.targets.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.targets.TargetUnanswered;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.PaymentCoverage;
import dev.toolgate.targets.Target;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the registry tells an approver a refund's payment covers ({@link TargetRegistry#coverage}): the payment
 * system's answer, "no such payment" only when the payment system said so, and otherwise that nothing can be said.
 */
class TargetRegistryCoverageTest {

    private static final PaymentCoverage.Coverage PAID = new PaymentCoverage.Coverage("pay-1", "succeeded", new BigDecimal("10.00"),
            BigDecimal.ZERO, "RUB");

    @Test
    void passesOnWhatThePaymentSystemSays() {
        assertEquals(Optional.of(PAID), TargetRegistry.coverage("yookassa", payments(id -> Optional.of(PAID)), "pay-1"));
    }

    @Test
    void saysThereIsNoSuchPaymentOnlyWhenThePaymentSystemSaysSo() {
        assertEquals(Optional.empty(), TargetRegistry.coverage("yookassa", payments(id -> Optional.empty()), "pay-1"));
    }

    @Test
    void cannotSayForASystemThisGatewayDoesNotReach() {
        // not "no such payment": that would tell the approver the refund will be refused
        TargetUnanswered unanswered = assertThrows(TargetUnanswered.class,
                () -> TargetRegistry.coverage("yookassa", null, "pay-1"));
        assertTrue(unanswered.getMessage().contains("not configured"), unanswered.getMessage());
    }

    @Test
    void cannotSayThroughAnAdapterThatKeepsNoAccountOfPayments() {
        // toolgate.target.yookassa.adapter=http: refunds go to a service the generic adapter cannot ask about payments
        TargetUnanswered unanswered = assertThrows(TargetUnanswered.class,
                () -> TargetRegistry.coverage("yookassa", new Plain(), "pay-1"));
        assertTrue(unanswered.getMessage().contains("yookassa"), unanswered.getMessage());
    }

    @Test
    void cannotSayWhenTheAdapterFails() {
        assertEquals("IllegalStateException", assertThrows(TargetUnanswered.class, () -> TargetRegistry.coverage("yookassa",
                payments(id -> {
                    throw new IllegalStateException("secret-bearing detail");
                }), "pay-1")).getMessage(), "the exception's class, never its message");
        TargetUnanswered own = new TargetUnanswered("yookassa answered 503");
        assertEquals(own, assertThrows(TargetUnanswered.class, () -> TargetRegistry.coverage("yookassa", payments(id -> {
            throw own;
        }), "pay-1")));
    }

    private static Target payments(Function<String, Optional<PaymentCoverage.Coverage>> answer) {
        return new Paying(answer);
    }

    /** An adapter with no account of payments. */
    private static class Plain implements Target {
        @Override
        public String system() {
            return "yookassa";
        }

        @Override
        public Outcome execute(Attempt attempt) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Lookup lookup(Attempt attempt) {
            throw new UnsupportedOperationException();
        }
    }

    private static final class Paying extends Plain implements PaymentCoverage {
        private final Function<String, Optional<Coverage>> answer;

        Paying(Function<String, Optional<Coverage>> answer) {
            this.answer = answer;
        }

        @Override
        public Optional<Coverage> coverage(String paymentId) {
            return answer.apply(paymentId);
        }
    }
}
