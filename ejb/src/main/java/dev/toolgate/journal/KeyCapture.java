package dev.toolgate.journal;

import static dev.toolgate.journal.EventKind.CAPTURED;
import static dev.toolgate.journal.EventKind.IN_PROGRESS;
import static dev.toolgate.journal.EventKind.KEY_REUSED;
import static dev.toolgate.journal.EventKind.REPLAYED;
import static dev.toolgate.journal.EventKind.UNSETTLED;

import dev.toolgate.canonical.CanonicalRequest;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import java.time.Duration;
import java.time.Instant;

/**
 * Phase 1 (seed 000, step 5): in one short transaction, register the key or decide, under the
 * row lock, what this request may do. Commits before any target is called.
 */
@Stateless
public class KeyCapture {

    static final String INSERT = "INSERT INTO agent_operation_log (operation_key, operation_type, request_hash,"
            + " payload, status, target_system, attempt_count, lease_until, created_at, updated_at)"
            + " VALUES (?1, ?2, ?3, CAST(?4 AS jsonb), 'started', ?5, 1, ?6, ?7, ?8)"
            + " ON CONFLICT (operation_key) DO NOTHING RETURNING operation_key";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Capture capture(String key, CanonicalRequest request) {
        Instant now = Instant.now();
        // Terminal rows never change, so a plain read answers replays without a row lock (DESIGN §3).
        Operation row = em.find(Operation.class, key);
        if (row == null) {
            if (insert(key, request, now)) {
                EventLog.append(em, key, CAPTURED, now, 1, OperationStatus.STARTED, "attempt 1 leased");
                return new Capture(new CaptureDecision.Execute(), captured(key, request, now, settings.lease()));
            }
            row = em.find(Operation.class, key, LockModeType.PESSIMISTIC_WRITE); // a concurrent caller won the insert
        } else if (!row.status().isTerminal()) {
            em.refresh(row, LockModeType.PESSIMISTIC_WRITE);
        }
        return decide(row, request.fingerprint(), now);
    }

    /** Decides again for an operation whose last attempt failed transiently, once its back-off has passed. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Capture nextAttempt(String key) {
        Operation row = em.find(Operation.class, key, LockModeType.PESSIMISTIC_WRITE);
        return decide(row, row.view().requestHash(), Instant.now());
    }

    private Capture decide(Operation row, String fingerprint, Instant now) {
        CaptureDecision decision = CapturePolicy.decide(row.state(), fingerprint, now);
        apply(row, decision, now);
        return new Capture(decision, row.view());
    }

    private boolean insert(String key, CanonicalRequest request, Instant now) {
        return !em.createNativeQuery(INSERT)
                .setParameter(1, key)
                .setParameter(2, request.operation())
                .setParameter(3, request.fingerprint())
                .setParameter(4, request.payloadJson())
                .setParameter(5, request.target())
                .setParameter(6, Operation.at(now.plus(settings.lease())))
                .setParameter(7, Operation.at(now))
                .setParameter(8, Operation.at(now))
                .getResultList().isEmpty();
    }

    private void apply(Operation row, CaptureDecision decision, Instant now) {
        OperationView before = row.view();
        if (decision instanceof CaptureDecision.Execute) {
            Leases.startNextAttempt(em, row, now, settings);
        } else if (decision instanceof CaptureDecision.Reconcile) {
            Leases.holdForReconcile(em, row, now, settings);
        } else if (decision instanceof CaptureDecision.Replay) {
            note(before, REPLAYED, now, null);
        } else if (decision instanceof CaptureDecision.Mismatch) {
            note(before, KEY_REUSED, now, "payload fingerprint differs; nothing executed");
        } else if (decision instanceof CaptureDecision.InProgress || decision instanceof CaptureDecision.RetryLater) {
            note(before, IN_PROGRESS, now, null);
        } else if (decision instanceof CaptureDecision.Unsettled || decision instanceof CaptureDecision.Escalated) {
            note(before, UNSETTLED, now, null);
        }
    }

    private void note(OperationView row, EventKind kind, Instant now, String detail) {
        EventLog.append(em, row.key(), kind, now, row.attemptCount(), row.status(), detail);
    }

    private static OperationView captured(String key, CanonicalRequest request, Instant now, Duration lease) {
        return new OperationView(key, request.operation(), request.target(), OperationStatus.STARTED,
                request.fingerprint(), request.payload(), null, null, null, 1, now.plus(lease), null, 0, null, null,
                now, now, null);
    }
}
