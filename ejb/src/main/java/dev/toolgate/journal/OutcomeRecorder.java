package dev.toolgate.journal;

import static dev.toolgate.journal.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.journal.EventKind.OUTCOME;
import static dev.toolgate.journal.EventKind.OUTCOME_REFUSED;
import static dev.toolgate.journal.EventKind.RECONCILED;

import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.target.Lookup;
import dev.toolgate.target.Outcome;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * Phase 2: write what a target call or a look-up established, in one short transaction, fenced by
 * attempt number and expected status. A caller whose lease expired and whose attempt was taken
 * over finds its update matching no row: the refusal is recorded as an event, never applied.
 * The gateway and reconciliation both record here: one path.
 */
@Stateless
public class OutcomeRecorder {

    private static final Logger LOG = Logger.getLogger(OutcomeRecorder.class.getName());

    static final String SETTLE = "UPDATE agent_operation_log SET status = ?1, target_object_id = ?2,"
            + " response_json = CAST(?3 AS jsonb), error_code = ?4, lease_until = NULL,"
            + " next_check_at = CAST(?5 AS timestamptz), completed_at = CAST(?6 AS timestamptz), updated_at = ?7"
            + " WHERE operation_key = ?8 AND attempt_count = ?9 AND status = ?10";

    private static final String RETRY = "UPDATE agent_operation_log SET status = 'started', attempt_count = attempt_count + 1,"
            + " lease_until = ?1, next_check_at = NULL, error_code = NULL, updated_at = ?2"
            + " WHERE operation_key = ?3 AND attempt_count = ?4 AND status = 'unknown'";

    // back-off doubles per unsettled look-up: 1 s, 2 s, 4 s … up to the configured ceiling
    private static final String POSTPONE = "UPDATE agent_operation_log SET lease_until = NULL,"
            + " next_check_at = CAST(?1 AS timestamptz) + make_interval(secs => LEAST(?2, 2 ^ LEAST(reconcile_count, 30))),"
            + " reconcile_count = reconcile_count + 1, error_code = ?3, updated_at = ?4"
            + " WHERE operation_key = ?5 AND attempt_count = ?6 AND status = 'unknown'";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

    /** Records the outcome of the attempt {@code attempt} describes; only that attempt's owner can. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public OperationView record(OperationView attempt, Outcome outcome, Duration took) {
        Instant now = Instant.now();
        int written = settle(attempt, OperationStatus.STARTED, transitionOf(outcome), now);
        EventLog.append(em, attempt.key(), written == 1 ? OUTCOME : OUTCOME_REFUSED, now, attempt.attemptCount(),
                transitionOf(outcome).status(), outcome.httpStatus(), outcome.errorClass(), took.toMillis(),
                describe(outcome));
        return current(attempt.key());
    }

    /** Records what a look-up by our key found for an operation whose outcome was unknown. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Settlement reconciled(OperationView unknown, Lookup lookup) {
        Instant now = Instant.now();
        int attempt = unknown.attemptCount();
        boolean retry = false;
        int written;
        if (lookup instanceof Lookup.Found found) {
            written = settle(unknown, OperationStatus.UNKNOWN,
                    new Transition(OperationStatus.SUCCEEDED, found.objectId(), found.result(), null), now);
        } else if (lookup instanceof Lookup.Absent) {
            written = retry(unknown, now);
            retry = written == 1;
        } else {
            written = postpone(unknown, errorCodeOf(lookup), now);
        }
        EventLog.append(em, unknown.key(), written == 1 ? RECONCILED : OUTCOME_REFUSED, now, attempt,
                OperationStatus.UNKNOWN, describe(lookup));
        if (retry) {
            EventLog.append(em, unknown.key(), ATTEMPT_STARTED, now, attempt + 1, OperationStatus.STARTED,
                    "look-up found no effect of attempt " + attempt);
        }
        if (lookup instanceof Lookup.Ambiguous ambiguous) {
            LOG.severe(() -> "DUPLICATE EFFECT: " + ambiguous.objectIds().size() + " objects at " + unknown.target()
                    + " carry operation key " + unknown.key() + ": " + ambiguous.objectIds());
        }
        return new Settlement(current(unknown.key()), retry);
    }

    private int settle(OperationView row, OperationStatus expected, Transition to, Instant now) {
        return em.createNativeQuery(SETTLE)
                .setParameter(1, to.status().dbName())
                .setParameter(2, to.objectId())
                .setParameter(3, to.result() == null ? null : CanonicalJson.write(to.result()))
                .setParameter(4, to.errorCode())
                .setParameter(5, to.status() == OperationStatus.UNKNOWN ? Operation.at(now) : null)
                .setParameter(6, to.status().isTerminal() ? Operation.at(now) : null)
                .setParameter(7, Operation.at(now))
                .setParameter(8, row.key())
                .setParameter(9, row.attemptCount())
                .setParameter(10, expected.dbName())
                .executeUpdate();
    }

    private int retry(OperationView row, Instant now) {
        return em.createNativeQuery(RETRY)
                .setParameter(1, Operation.at(now.plus(settings.lease())))
                .setParameter(2, Operation.at(now))
                .setParameter(3, row.key())
                .setParameter(4, row.attemptCount())
                .executeUpdate();
    }

    private int postpone(OperationView row, String errorCode, Instant now) {
        return em.createNativeQuery(POSTPONE)
                .setParameter(1, Operation.at(now))
                .setParameter(2, settings.maxReconcileBackoffSeconds())
                .setParameter(3, errorCode)
                .setParameter(4, Operation.at(now))
                .setParameter(5, row.key())
                .setParameter(6, row.attemptCount())
                .executeUpdate();
    }

    private OperationView current(String key) {
        return em.find(Operation.class, key).view();
    }

    private static Transition transitionOf(Outcome outcome) {
        if (outcome instanceof Outcome.Succeeded s) {
            return new Transition(OperationStatus.SUCCEEDED, s.objectId(), s.result(), null);
        }
        if (outcome instanceof Outcome.Rejected r) {
            JsonObject error = Json.createObjectBuilder().add("detail", r.detail()).build();
            return new Transition(OperationStatus.FAILED_FINAL, null, error, r.errorCode());
        }
        if (outcome instanceof Outcome.Transient t) {
            return new Transition(OperationStatus.FAILED_RETRYABLE, null, null, t.errorCode());
        }
        return new Transition(OperationStatus.UNKNOWN, null, null, ((Outcome.Unknown) outcome).errorCode());
    }

    private static String errorCodeOf(Lookup lookup) {
        if (lookup instanceof Lookup.Unavailable u) {
            return u.errorCode();
        }
        return lookup instanceof Lookup.Ambiguous ? "duplicate_effect" : "target_pending";
    }

    private static String describe(Outcome outcome) {
        if (outcome instanceof Outcome.Succeeded s) {
            return "target object " + s.objectId();
        }
        if (outcome instanceof Outcome.Rejected r) {
            return r.errorCode() + ": " + r.detail();
        }
        return outcome instanceof Outcome.Transient t ? t.errorCode() : ((Outcome.Unknown) outcome).errorCode();
    }

    private static String describe(Lookup lookup) {
        if (lookup instanceof Lookup.Found f) {
            return "found target object " + f.objectId();
        }
        if (lookup instanceof Lookup.Absent) {
            return "absent";
        }
        if (lookup instanceof Lookup.Pending p) {
            return "pending: " + p.detail();
        }
        if (lookup instanceof Lookup.Ambiguous a) {
            return "DUPLICATE: " + a.objectIds().size() + " objects carry this key: " + a.objectIds();
        }
        return "unavailable: " + ((Lookup.Unavailable) lookup).errorCode();
    }

    private record Transition(OperationStatus status, String objectId, JsonObject result, String errorCode) {
    }
}
