package dev.toolgate.targets;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * A payment target that can say how much of a payment is left to refund: what an approver is shown next
 * to a refund waiting for consent. A read, never an effect; called with no database transaction open.
 */
public interface PaymentCoverage {

    /** The payment as the target holds it now; empty when the target answers that it does not exist. */
    Optional<Coverage> coverage(String paymentId);

    /**
     * Paid and refunded so far in major units of {@code currency}, and the payment's status at the target.
     * {@code remaining} is what a refund may still take.
     */
    record Coverage(String paymentId, String status, BigDecimal paid, BigDecimal refunded, String currency) {
        public BigDecimal remaining() {
            return paid.subtract(refunded);
        }
    }

}
