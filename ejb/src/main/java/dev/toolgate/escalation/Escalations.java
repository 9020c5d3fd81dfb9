package dev.toolgate.escalation;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationId;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.lifecycle.Resolutions;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;
import java.util.List;

/**
 * What operators do with escalations: list them, and settle one on their word and evidence under the row lock,
 * audited under their name. Only a person changes an escalated operation: every automatic write is fenced off it.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class Escalations {

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<OperationView> list(String tenant, int limit) {
        return em.createQuery("SELECT o FROM Operation o WHERE o.tenant = :tenant AND o.status = 'unknown'"
                        + " AND o.escalatedAt IS NOT NULL ORDER BY o.escalatedAt", Operation.class)
                .setParameter("tenant", tenant).setMaxResults(limit)
                .getResultStream().map(Operation::view).toList();
    }

    /** The effect exists: {@code objectId} is the target's object the operator found. */
    public OperationView resolveSucceeded(Caller operator, String key, String objectId, String evidence) {
        return resolve(operator, key, objectId, null, evidence,
                JSON.createObjectBuilder().add("resolved_by", operator.principalId()).add("evidence", evidence).build());
    }

    /** No effect exists and none will: the operation fails for good with {@code reason}. */
    public OperationView resolveFailed(Caller operator, String key, String reason, String evidence) {
        return resolve(operator, key, null, "resolved_failed", evidence,
                JSON.createObjectBuilder().add("detail", reason).add("resolved_by", operator.principalId())
                        .add("evidence", evidence).build());
    }

    private OperationView resolve(Caller operator, String key, String objectId, String code, String evidence, JsonObject result) {
        Instant now = Instant.now();
        Operation row = escalated(operator, key);
        OperationView before = row.view();
        em.detach(row); // moved on by the resolution's statement: its stale fields are never written back
        OperationStatus to = objectId != null ? OperationStatus.SUCCEEDED : OperationStatus.FAILED_FINAL;
        return Resolutions.resolved(JournalConnections.of(em), before, to, objectId, code, result, operator.principalId(), now,
                (objectId != null ? "target object " + objectId : code) + " on evidence: " + evidence);
    }

    private Operation escalated(Caller operator, String key) {
        Operation row = em.find(Operation.class, new OperationId(operator.tenant(), key), LockModeType.PESSIMISTIC_WRITE);
        if (row == null) {
            throw new OperationRefused(OperationRefused.Reason.OPERATION_NOT_FOUND, "no operation with this key");
        }
        if (!row.view().escalated()) {
            throw new OperationRefused(OperationRefused.Reason.NOT_ESCALATED,
                    "only an escalated operation is resolved by hand; this one is " + row.status().dbName());
        }
        return row;
    }
}
