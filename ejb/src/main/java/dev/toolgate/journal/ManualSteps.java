package dev.toolgate.journal;

import static dev.toolgate.journal.EventKind.APPROVAL_LAPSED;
import static dev.toolgate.journal.EventKind.APPROVAL_REVOKED;
import static dev.toolgate.journal.EventKind.APPROVED;
import static dev.toolgate.journal.EventKind.RESOLVED;

import dev.toolgate.canonical.CanonicalJson;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;
import java.util.Optional;

/**
 * What people do to an operation — approve, revoke, resolve an escalation — written under the row
 * lock in the caller's transaction, each with its audit event naming the person.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.MANDATORY)
public class ManualSteps {

    private static final String RESULT = "UPDATE agent_operation_log SET response_json = CAST(?1 AS jsonb)"
            + " WHERE tenant = ?2 AND operation_key = ?3";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    public Optional<OperationView> lock(String tenant, String key) {
        return Optional.ofNullable(em.find(Operation.class, new OperationId(tenant, key), LockModeType.PESSIMISTIC_WRITE))
                .map(Operation::view);
    }

    public void approved(OperationView operation, ApprovalView approval, String actor, Instant now) {
        row(operation).approvedBy(approval.id(), now);
        EventLog.append(em, operation, actor, APPROVED, now, operation.attemptCount(), operation.status(),
                "approval " + approval.id() + " for fingerprint " + approval.requestHash() + " until " + approval.expiresAt());
    }

    public void revoked(OperationView operation, ApprovalView approval, String actor, Instant now) {
        EventLog.append(em, operation, actor, APPROVAL_REVOKED, now, operation.attemptCount(), operation.status(),
                "approval " + approval.id() + " revoked" + (approval.revokeReason() == null ? "" : ": " + approval.revokeReason()));
        if (operation.status() == OperationStatus.PENDING_APPROVAL && approval.id().equals(operation.approvalId())) {
            row(operation).lapse(ApprovalStanding.REVOKED.lapseCode(), now); // nothing was ever sent
            EventLog.append(em, operation, actor, APPROVAL_LAPSED, now, operation.attemptCount(), OperationStatus.FAILED_FINAL,
                    "revoked before any attempt; nothing sent");
        }
    }

    /**
     * Settles an escalated operation on an operator's word: {@code objectId} non-null → succeeded with
     * that target object; null → failed_final with {@code code}. {@code evidence} is kept in the event.
     */
    public OperationView resolve(OperationView operation, String objectId, String code, String evidence, JsonObject result,
                                 String actor, Instant now) {
        Operation row = row(operation);
        OperationStatus to = objectId != null ? OperationStatus.SUCCEEDED : OperationStatus.FAILED_FINAL;
        row.resolve(to, objectId, code, now);
        em.flush();
        em.createNativeQuery(RESULT).setParameter(1, CanonicalJson.write(result))
                .setParameter(2, operation.tenant()).setParameter(3, operation.key()).executeUpdate();
        EventLog.append(em, operation, actor, RESOLVED, now, operation.attemptCount(), to,
                (objectId != null ? "target object " + objectId : code) + " on evidence: " + evidence);
        em.refresh(row);
        return row.view();
    }

    private Operation row(OperationView operation) {
        return em.find(Operation.class, new OperationId(operation.tenant(), operation.key()));
    }
}
