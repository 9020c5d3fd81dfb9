package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.CaptureDecision;
import dev.toolgate.lifecycle.decisions.CapturePolicy;
import dev.toolgate.lifecycle.decisions.OperationState;

import dev.toolgate.operation.EventKind;
import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationId;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static dev.toolgate.operation.EventKind.APPROVAL_LAPSED;
import static dev.toolgate.operation.EventKind.CAPTURED;
import static dev.toolgate.operation.EventKind.IN_PROGRESS;
import static dev.toolgate.operation.EventKind.KEY_REUSED;
import static dev.toolgate.operation.EventKind.REPLAYED;
import static dev.toolgate.operation.EventKind.RESUMED;
import static dev.toolgate.operation.EventKind.UNSETTLED;

import dev.toolgate.approval.Approval;
import dev.toolgate.access.Caller;
import dev.toolgate.canonical.CanonicalRequest;
import dev.toolgate.trace.Trace;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;

/** Phase 1: the key captured, or decided under its row lock, in one short transaction committed before any target call. */
@Stateless
public class KeyCapture {

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

    /**
     * A key whose first look ({@link FirstCapture}) could not answer: decided under the row lock, inserted here only if a
     * purge took the row since. A terminal row never changes, so it is decided without the lock.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Phase capture(Caller caller, String key, CanonicalRequest request) {
        Instant now = Instant.now();
        OperationId id = new OperationId(caller.tenant(), key);
        Trace.operation(key);
        Operation row = em.find(Operation.class, id);
        if (row == null) {
            boolean approval = settings.approvalRequired(request.operation());
            if (insert(caller, key, request, now, approval)) {
                Phase captured = FirstCapture.newRow(caller, key, request, now, approval, settings.lease());
                OperationView inserted = captured.operation();
                EventLog.logOnCommit(inserted, caller.principalId(), CAPTURED, inserted.attemptCount(), inserted.status(), FirstCapture.detail(approval));
                return captured;
            }
            row = em.find(Operation.class, id, LockModeType.PESSIMISTIC_WRITE); // a concurrent caller won the insert
        } else if (!row.status().isTerminal()) {
            em.refresh(row, LockModeType.PESSIMISTIC_WRITE);
        }
        return decide(row, request.fingerprint(), caller.principalId(), now);
    }

    /** Decides again for an operation whose last attempt failed transiently, once its back-off has passed. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Phase nextAttempt(OperationView failed, String actor) {
        Operation row = em.find(Operation.class, new OperationId(failed.tenant(), failed.key()), LockModeType.PESSIMISTIC_WRITE);
        return decide(row, row.view().requestHash(), actor, Instant.now());
    }

    private Phase decide(Operation row, String fingerprint, String actor, Instant now) {
        CaptureDecision decision = CapturePolicy.decide(OperationState.of(row.view(), Approval.standing(em, row.view(), now)), fingerprint, now);
        OperationStatus before = row.status();
        return Phase.captured(decision, before, apply(row, decision, actor, now));
    }

    /** Decides for the recorded payload of an existing operation: a replacement agent's resume. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Phase resume(Caller caller, String key) {
        Trace.operation(key);
        Operation row = em.find(Operation.class, new OperationId(caller.tenant(), key), LockModeType.PESSIMISTIC_WRITE);
        if (row == null) {
            return null;
        }
        Instant now = Instant.now();
        OperationView before = row.view();
        note(before, caller.principalId(), RESUMED, now, "resumed by " + caller.principalId() + " with the recorded payload");
        Phase capture = decide(row, before.requestHash(), caller.principalId(), now);
        if (capture.decision() instanceof CaptureDecision.Execute && !before.withheldFields().isEmpty()) {
            throw new OperationRefused(OperationRefused.Reason.RESUME_NEEDS_CALLER, "the next attempt needs fields the journal never"
                    + " kept " + before.withheldFields() + ": send the original request again with the same key");
        }
        return capture;
    }

    /** True when this caller's capture won: {@link FirstCapture}'s statement, on the transaction's connection. */
    private boolean insert(Caller caller, String key, CanonicalRequest request, Instant now, boolean approval) {
        Object[] values = FirstCapture.insertValues(caller, key, request, now, approval, settings.lease());
        return JournalConnections.run("the journal's capture of an operation failed",
                () -> FirstCapture.captured(JournalConnections.of(em), values));
    }

    /** The decision's write under the row lock, if it makes one; the row as it now stands. */
    private OperationView apply(Operation row, CaptureDecision decision, String actor, Instant now) {
        OperationView before = row.view();
        // the leases are SQL with their events, as the job's claim and the recorders write; the entity, read before
        // that SQL moved the row on, is detached so that nothing can ever write its stale status and epoch back
        if (decision instanceof CaptureDecision.Execute) {
            em.detach(row);
            return Leases.startNextAttempt(JournalConnections.of(em), before, actor, now, settings.lease());
        }
        if (decision instanceof CaptureDecision.Reconcile) {
            em.detach(row);
            return Leases.holdForReconcile(JournalConnections.of(em), before, actor, now, settings);
        }
        if (decision instanceof CaptureDecision.ApprovalLapsed lapsed) {
            em.detach(row);
            return ApprovalWrites.underLock(ApprovalWrites.lapse(JournalConnections.of(em), before, lapsed.standing().lapseCode(),
                    APPROVAL_LAPSED, actor, now, "the approval was " + lapsed.standing().dbName() + " before attempt "
                            + (before.attemptCount() + 1) + "; nothing sent"), before);
        }
        // a replay or a poll changes nothing: logged and counted, not journaled, or an agent polling every few seconds
        // would grow the journal by a row per poll; a refused payload is a caller's mistake worth keeping
        if (decision instanceof CaptureDecision.Mismatch) {
            note(before, actor, KEY_REUSED, now, "payload fingerprint differs; nothing executed");
        } else if (decision instanceof CaptureDecision.Replay) {
            EventLog.logOnCommit(before, actor, REPLAYED, before.attemptCount(), before.status(), null);
        } else if (decision instanceof CaptureDecision.InProgress || decision instanceof CaptureDecision.RetryLater) {
            EventLog.logOnCommit(before, actor, IN_PROGRESS, before.attemptCount(), before.status(), null);
        } else if (decision instanceof CaptureDecision.Unsettled || decision instanceof CaptureDecision.Escalated) {
            EventLog.logOnCommit(before, actor, UNSETTLED, before.attemptCount(), before.status(), null);
        }
        return row.view();
    }

    private void note(OperationView row, String actor, EventKind kind, Instant now, String detail) {
        EventLog.append(em, row, actor, kind, now, row.attemptCount(), row.status(), detail);
    }
}
