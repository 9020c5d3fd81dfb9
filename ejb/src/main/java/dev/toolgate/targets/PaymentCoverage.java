package dev.toolgate.targets;

import java.math.BigDecimal;
import java.util.Optional;

/** How much of a payment is left to refund, shown to an approver. A read, called with no transaction open. */
public interface PaymentCoverage {

    Optional<Coverage> coverage(String paymentId);

    record Coverage(String paymentId, String status, BigDecimal paid, BigDecimal refunded, String currency) {
        public BigDecimal remaining() {
            return paid.subtract(refunded);
        }
    }

}
