package dev.toolgate.approval;

import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.TargetUnanswered;
import dev.toolgate.targets.registry.TargetRegistry;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonString;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * What a refund awaiting approval may still take of its payment, asked of the payment system when the approver looks:
 * a read with no transaction open. The refund's own attempt is checked again by its adapter.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class RefundCoverage {

    @Inject
    TargetRegistry targets;

    /** Empty unless {@code operation} is a refund that names its payment. */
    public Optional<Cover> of(OperationView operation) {
        if (!"payment.refund".equals(operation.operation()) || operation.payload() == null
                || !(operation.payload().get("payment_id") instanceof JsonString payment)) {
            return Optional.empty();
        }
        try {
            return Optional.of(targets.coverage(operation.target(), payment.getString())
                    .<Cover>map(p -> new Cover.Covers(p.paymentId(), p.status(), p.paid(), p.refunded(), p.currency()))
                    .orElseGet(Cover.NoSuchPayment::new));
        } catch (TargetUnanswered e) {
            return Optional.of(new Cover.Unanswered(e.getMessage()));
        }
    }

    public sealed interface Cover {

        /** Paid and refunded so far, in major units of {@code currency}, and the payment's status there. */
        record Covers(String paymentId, String status, BigDecimal paid, BigDecimal refunded, String currency) implements Cover {
            public BigDecimal remaining() {
                return paid.subtract(refunded);
            }
        }

        record NoSuchPayment() implements Cover {
        }

        /** Nothing can be said now ({@code why}: unreachable, an error, or an adapter that keeps no account of payments). */
        record Unanswered(String why) implements Cover {
        }
    }
}
