package dev.toolgate.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.PaymentCoverage;
import dev.toolgate.targets.TargetUnanswered;
import dev.toolgate.targets.registry.TargetRegistry;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** What an approver is told a refund's payment still covers, for each answer the payment system can give. */
class RefundCoverageTest {

    private static final JsonObject REFUND = Json.createObjectBuilder().add("payment_id", "pay-1").add("amount", "250.00").build();

    @Test
    void tellsWhatThePaymentStillCovers() {
        RefundCoverage.Cover cover = coverage(id -> Optional.of(new PaymentCoverage.Coverage(id, "succeeded",
                new BigDecimal("1000.00"), new BigDecimal("300.00"), "RUB"))).of(operation("payment.refund", REFUND)).orElseThrow();
        RefundCoverage.Cover.Covers covers = assertInstanceOf(RefundCoverage.Cover.Covers.class, cover);
        assertEquals("pay-1", covers.paymentId());
        assertEquals(new BigDecimal("700.00"), covers.remaining());
    }

    @Test
    void saysWhenThePaymentSystemKnowsNoSuchPayment() {
        assertInstanceOf(RefundCoverage.Cover.NoSuchPayment.class,
                coverage(id -> Optional.empty()).of(operation("payment.refund", REFUND)).orElseThrow());
    }

    @Test
    void saysWhyNothingCanBeSaidWhenThePaymentSystemDoesNotAnswer() {
        RefundCoverage.Cover cover = coverage(id -> {
            throw new TargetUnanswered("yookassa answered 503");
        }).of(operation("payment.refund", REFUND)).orElseThrow();
        assertEquals(new RefundCoverage.Cover.Unanswered("yookassa answered 503"), cover);
    }

    @Test
    void asksNothingForAnOperationThatIsNoRefundOfAPayment() {
        RefundCoverage coverage = coverage(id -> {
            throw new AssertionError("asked about " + id);
        });
        assertTrue(coverage.of(operation("payment.create", REFUND)).isEmpty());
        assertTrue(coverage.of(operation("payment.refund", Json.createObjectBuilder().add("amount", "1.00").build())).isEmpty());
        assertTrue(coverage.of(operation("payment.refund", Json.createObjectBuilder().add("payment_id", 7).build())).isEmpty());
    }

    private static RefundCoverage coverage(Function<String, Optional<PaymentCoverage.Coverage>> paymentSystem) {
        RefundCoverage coverage = new RefundCoverage();
        coverage.targets = new TargetRegistry() {
            @Override
            public Optional<PaymentCoverage.Coverage> coverage(String system, String paymentId) {
                return paymentSystem.apply(paymentId);
            }
        };
        return coverage;
    }

    private static OperationView operation(String operation, JsonObject payload) {
        Instant now = Instant.now();
        return new OperationView("acme", "k", "agent-a", operation, "yookassa", OperationStatus.PENDING_APPROVAL, "a".repeat(64), payload,
                List.of(), null, null, null, 0, null, 1, null, 0, null, null, now, now, null, null, null, true, null);
    }
}
