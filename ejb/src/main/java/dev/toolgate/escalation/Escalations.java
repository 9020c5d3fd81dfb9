package dev.toolgate.escalation;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.journal.ManualSteps;
import dev.toolgate.journal.OperationRefused;
import dev.toolgate.journal.OperationView;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Instant;

/** An operator's resolution of one escalated operation, in one short transaction under the row lock. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class Escalations {

    @Inject
    ManualSteps steps;

    /** The effect exists: {@code objectId} is the target's object the operator found. */
    public OperationView resolveSucceeded(Caller operator, String key, String objectId, String evidence) {
        OperationView operation = escalated(operator, key);
        return steps.resolve(operation, objectId, null, evidence,
                JSON.createObjectBuilder().add("resolved_by", operator.principalId()).add("evidence", evidence).build(),
                operator.principalId(), Instant.now());
    }

    /** No effect exists and none will: the operation fails for good with {@code reason}. */
    public OperationView resolveFailed(Caller operator, String key, String reason, String evidence) {
        OperationView operation = escalated(operator, key);
        return steps.resolve(operation, null, "resolved_failed", evidence,
                JSON.createObjectBuilder().add("detail", reason).add("resolved_by", operator.principalId())
                        .add("evidence", evidence).build(),
                operator.principalId(), Instant.now());
    }

    private OperationView escalated(Caller operator, String key) {
        OperationView operation = steps.lock(operator.tenant(), key)
                .orElseThrow(() -> new OperationRefused(OperationRefused.Reason.OPERATION_NOT_FOUND, "no operation with this key"));
        if (!operation.escalated()) {
            throw new OperationRefused(OperationRefused.Reason.NOT_ESCALATED,
                    "only an escalated operation is resolved by hand; this one is " + operation.status().dbName());
        }
        return operation;
    }
}
