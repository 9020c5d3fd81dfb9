package dev.toolgate.approval;

import static dev.toolgate.operation.OperationRefused.Reason.APPROVAL_NOT_FOUND;
import static dev.toolgate.operation.OperationRefused.Reason.APPROVAL_NOT_REQUIRED;
import static dev.toolgate.operation.OperationRefused.Reason.FINGERPRINT_MISMATCH;
import static dev.toolgate.operation.OperationRefused.Reason.NOT_AWAITING_APPROVAL;
import static dev.toolgate.operation.OperationRefused.Reason.OPERATION_NOT_FOUND;
import static dev.toolgate.operation.OperationRefused.Reason.OWN_OPERATION;

import static dev.toolgate.operation.EventKind.APPROVAL_LAPSED;
import static dev.toolgate.operation.EventKind.APPROVAL_REVOKED;
import static dev.toolgate.operation.EventKind.DECLINED;

import dev.toolgate.access.Caller;
import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationId;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Grants and revokes approvals, each in one short transaction under the operation's row lock. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class Approvals {

    /** An approval outlives neither a working day nor a forgotten tab by much: one hour unless asked otherwise. */
    public static final Duration DEFAULT_VALIDITY = Duration.ofHours(1);
    public static final Duration MAX_VALIDITY = Duration.ofDays(7);

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    ApprovalTransitions transitions;

    /** {@code fingerprint}, when given, must be the one the approver was shown: an approval binds the exact intent. */
    public ApprovalView grant(Caller approver, String key, String fingerprint, Duration validFor, String note) {
        Instant now = Instant.now();
        Operation row = lock(approver.tenant(), key);
        if (row == null) {
            throw new OperationRefused(OPERATION_NOT_FOUND, "no operation with this key");
        }
        OperationView operation = row.view();
        if (!operation.approvalRequired()) {
            throw new OperationRefused(APPROVAL_NOT_REQUIRED, operation.operation() + " needs no approval on this gateway");
        }
        if (operation.status() != OperationStatus.PENDING_APPROVAL) {
            throw new OperationRefused(NOT_AWAITING_APPROVAL, "the operation is " + operation.status().dbName() + ", not awaiting approval");
        }
        if (fingerprint != null && !fingerprint.equals(operation.requestHash())) {
            throw new OperationRefused(FINGERPRINT_MISMATCH, "the operation's fingerprint is not the one approved");
        }
        if (approver.principalId().equals(operation.agentId())) { // four eyes: nobody approves their own request
            throw new OperationRefused(OWN_OPERATION, "a principal cannot approve an operation it submitted");
        }
        if (operation.approvalId() != null) {
            Approval standing = em.find(Approval.class, operation.approvalId());
            if (Approval.standing(operation, standing, now) == ApprovalStanding.ACTIVE) {
                return standing.view(now); // approving twice is the same approval
            }
            if (standing.view(now).revokedAt() == null) { // expired: closed, so the new one is the only standing
                standing.revoke(approver.principalId(), "expired; superseded by a new approval", now);
                em.flush();
            }
        }
        Approval approval = new Approval(UUID.randomUUID().toString(), operation, approver.principalId(), now,
                now.plus(validFor), note);
        em.persist(approval);
        em.flush(); // the approval's row first: the operation's row is written by JDBC, which flushes nothing
        em.detach(row); // moved on by that statement: its stale fields are never written back
        transitions.approved(JournalConnections.of(em), operation, approval.view(now).id(), approver.principalId(), now,
                "approval " + approval.view(now).id() + " for fingerprint " + operation.requestHash() + " until " + approval.view(now).expiresAt());
        return approval.view(now);
    }

    /** Idempotent. An operation that has sent nothing fails for good at once; one dispatched keeps its attempt, but no new one. */
    public ApprovalView revoke(Caller approver, String approvalId, String reason) {
        Instant now = Instant.now();
        Approval approval = em.find(Approval.class, approvalId);
        if (approval == null || !approval.view(now).tenant().equals(approver.tenant())) {
            throw new OperationRefused(APPROVAL_NOT_FOUND, "no approval with this id");
        }
        ApprovalView before = approval.view(now);
        Operation row = lock(before.tenant(), before.operationKey()); // the lock every new attempt's approval check takes
        if (row == null) { // purged meanwhile, and its approvals with it
            throw new OperationRefused(APPROVAL_NOT_FOUND, "no approval with this id");
        }
        em.refresh(approval); // a concurrent revoke that held the lock first is seen now: revoking twice is harmless
        if (approval.view(now).revokedAt() != null) {
            return approval.view(now);
        }
        approval.revoke(approver.principalId(), reason, now);
        em.flush();
        revoked(row, approval.view(now), approver.principalId(), now);
        return approval.view(now);
    }

    private void revoked(Operation row, ApprovalView approval, String actor, Instant now) {
        OperationView operation = row.view();
        EventLog.append(em, operation, actor, APPROVAL_REVOKED, now, operation.attemptCount(), operation.status(),
                "approval " + approval.id() + " revoked" + (approval.revokeReason() == null ? "" : ": " + approval.revokeReason()));
        if (operation.status() == OperationStatus.PENDING_APPROVAL && approval.id().equals(operation.approvalId())) {
            em.detach(row); // moved on by the lapse's statement: its stale fields are never written back
            transitions.lapsed(JournalConnections.of(em), operation, ApprovalStanding.REVOKED.lapseCode(), APPROVAL_LAPSED, actor, now,
                    "revoked before any attempt; nothing sent"); // nothing was ever sent
        }
    }

    /**
     * A person says no: the operation, awaiting approval with the fingerprint the approver was shown, fails for good
     * with {@link ApprovalStanding#DECLINED_CODE}, nothing sent; an unused approval for it is revoked with it.
     */
    public OperationView decline(Caller approver, String key, String fingerprint, String reason) {
        Instant now = Instant.now();
        Operation row = lock(approver.tenant(), key);
        if (row == null) {
            throw new OperationRefused(OPERATION_NOT_FOUND, "no operation with this key");
        }
        OperationView operation = row.view();
        if (operation.status() != OperationStatus.PENDING_APPROVAL) {
            throw new OperationRefused(NOT_AWAITING_APPROVAL, "the operation is " + operation.status().dbName() + ", not awaiting approval");
        }
        if (!operation.requestHash().equals(fingerprint)) {
            throw new OperationRefused(FINGERPRINT_MISMATCH, "the operation's fingerprint is not the one declined");
        }
        if (operation.approvalId() != null) {
            Approval standing = em.find(Approval.class, operation.approvalId());
            if (standing != null && standing.view(now).revokedAt() == null) {
                standing.revoke(approver.principalId(), "declined", now);
                em.flush();
            }
        }
        em.detach(row); // moved on by the lapse's statement: its stale fields are never written back
        return transitions.lapsed(JournalConnections.of(em), operation, ApprovalStanding.DECLINED_CODE, DECLINED, approver.principalId(),
                now, "declined" + (reason == null ? "" : ": " + reason) + "; nothing sent");
    }

    public List<OperationView> awaiting(String tenant, int limit) {
        return em.createQuery("SELECT o FROM Operation o WHERE o.tenant = :tenant AND o.status = 'pending_approval'"
                        + " ORDER BY o.createdAt", Operation.class)
                .setParameter("tenant", tenant).setMaxResults(limit)
                .getResultStream().map(Operation::view).toList();
    }

    private Operation lock(String tenant, String key) {
        return em.find(Operation.class, new OperationId(tenant, key), LockModeType.PESSIMISTIC_WRITE);
    }

    public ApprovalView find(Caller caller, String approvalId) {
        Approval approval = em.find(Approval.class, approvalId);
        if (approval == null || !approval.view(Instant.now()).tenant().equals(caller.tenant())) {
            throw new OperationRefused(APPROVAL_NOT_FOUND, "no approval with this id");
        }
        return approval.view(Instant.now());
    }
}
