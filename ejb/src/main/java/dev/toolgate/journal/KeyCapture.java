package dev.toolgate.journal;

import static dev.toolgate.journal.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.journal.EventKind.CAPTURED;
import static dev.toolgate.journal.EventKind.IN_PROGRESS;
import static dev.toolgate.journal.EventKind.KEY_REUSED;
import static dev.toolgate.journal.EventKind.LEASE_EXPIRED;
import static dev.toolgate.journal.EventKind.RECONCILE_STARTED;
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
        Duration lease = settings.lease();
        // Terminal rows never change, so a plain read answers replays without a row lock (DESIGN §3).
        Operation row = em.find(Operation.class, key);
        if (row == null) {
            if (insert(key, request, now, lease)) {
                EventLog.append(em, key, CAPTURED, now, 1, OperationStatus.STARTED, "attempt 1 leased");
                return new Capture(new CaptureDecision.Execute(), captured(key, request, now, lease));
            }
            row = em.find(Operation.class, key, LockModeType.PESSIMISTIC_WRITE); // a concurrent caller won the insert
        } else if (!row.status().isTerminal()) {
            em.refresh(row, LockModeType.PESSIMISTIC_WRITE);
        }
        CaptureDecision decision = CapturePolicy.decide(row.state(), request.fingerprint(), now);
        apply(row, decision, key, now, lease);
        return new Capture(decision, row.view());
    }

    private boolean insert(String key, CanonicalRequest request, Instant now, Duration lease) {
        return !em.createNativeQuery(INSERT)
                .setParameter(1, key)
                .setParameter(2, request.operation())
                .setParameter(3, request.fingerprint())
                .setParameter(4, request.payloadJson())
                .setParameter(5, request.target())
                .setParameter(6, Operation.at(now.plus(lease)))
                .setParameter(7, Operation.at(now))
                .setParameter(8, Operation.at(now))
                .getResultList().isEmpty();
    }

    private void apply(Operation row, CaptureDecision decision, String key, Instant now, Duration lease) {
        OperationStatus before = row.status();
        int attempt = row.view().attemptCount();
        if (decision instanceof CaptureDecision.Execute) {
            row.startNextAttempt(now, lease);
            EventLog.append(em, key, ATTEMPT_STARTED, now, attempt + 1, OperationStatus.STARTED, "attempt leased");
        } else if (decision instanceof CaptureDecision.Reconcile) {
            if (before == OperationStatus.STARTED) {
                EventLog.append(em, key, LEASE_EXPIRED, now, attempt, OperationStatus.UNKNOWN,
                        "the owner of attempt " + attempt + " did not record an outcome in time");
            }
            row.holdForReconcile(now, lease);
            EventLog.append(em, key, RECONCILE_STARTED, now, attempt, OperationStatus.UNKNOWN, "look-up by key leased");
        } else if (decision instanceof CaptureDecision.Replay) {
            EventLog.append(em, key, REPLAYED, now, attempt, before, null);
        } else if (decision instanceof CaptureDecision.Mismatch) {
            EventLog.append(em, key, KEY_REUSED, now, attempt, before, "payload fingerprint differs; nothing executed");
        } else if (decision instanceof CaptureDecision.InProgress) {
            EventLog.append(em, key, IN_PROGRESS, now, attempt, before, null);
        } else if (decision instanceof CaptureDecision.Unsettled) {
            EventLog.append(em, key, UNSETTLED, now, attempt, before, null);
        }
    }

    private static OperationView captured(String key, CanonicalRequest request, Instant now, Duration lease) {
        return new OperationView(key, request.operation(), request.target(), OperationStatus.STARTED,
                request.fingerprint(), request.payload(), null, null, null, 1, now.plus(lease), null, now, now, null);
    }
}
