package dev.toolgate.journal;

import static dev.toolgate.canonical.Jsons.JSON;

import static dev.toolgate.journal.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.journal.EventKind.ESCALATED;
import static dev.toolgate.journal.EventKind.OUTCOME;
import static dev.toolgate.journal.EventKind.OUTCOME_REFUSED;
import static dev.toolgate.journal.EventKind.RECONCILED;

import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.RetryPolicy;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Phase 2: write what a target call or a look-up established, in one short transaction, fenced by
 * attempt number and expected status. A caller whose lease expired and whose attempt was taken
 * over finds its update matching no row: the refusal is recorded as an event, never applied.
 * The gateway and the reconcile job both record here: one path.
 */
@Stateless
public class OutcomeRecorder {

    public static final String SETTLE = "UPDATE agent_operation_log SET status = ?1, target_object_id = ?2,"
            + " response_json = CAST(?3 AS jsonb), error_code = ?4, lease_until = NULL,"
            + " next_check_at = CAST(?5 AS timestamptz), completed_at = CAST(?6 AS timestamptz), updated_at = ?7,"
            + " settle_after = CAST(?8 AS timestamptz)"
            + " WHERE tenant = ?9 AND operation_key = ?10 AND attempt_count = ?11 AND status = ?12";

    private static final String RETRY = "UPDATE agent_operation_log SET status = 'started', attempt_count = attempt_count + 1,"
            + " lease_until = ?1, next_check_at = NULL, error_code = NULL, updated_at = ?2"
            + " WHERE tenant = ?3 AND operation_key = ?4 AND attempt_count = ?5 AND status = 'unknown'";

    // back-off doubles per failed look-up: 1 s, 2 s, 4 s … up to the ceiling; escalates at the limit
    private static final String POSTPONE = "UPDATE agent_operation_log SET lease_until = NULL,"
            + " next_check_at = CAST(?1 AS timestamptz) + make_interval(secs => LEAST(?2, 2 ^ LEAST(reconcile_count, 30))),"
            + " reconcile_count = reconcile_count + 1,"
            + " escalated_at = CASE WHEN CAST(?3 AS boolean) OR reconcile_count + 1 >= ?4 THEN CAST(?5 AS timestamptz) END,"
            + " error_code = ?6, updated_at = ?7"
            + " WHERE tenant = ?8 AND operation_key = ?9 AND attempt_count = ?10 AND status = 'unknown'";

    private static final String AWAIT_SETTLE = "UPDATE agent_operation_log SET lease_until = NULL,"
            + " next_check_at = settle_after, updated_at = ?1"
            + " WHERE tenant = ?2 AND operation_key = ?3 AND attempt_count = ?4 AND status = 'unknown'";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;
    @Inject
    GatewayMetrics metrics;

    /** Records the outcome of the attempt {@code attempt} describes; only that attempt's owner can. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Recorded record(OperationView attempt, Outcome outcome, Duration took, RetryPolicy policy, String actor) {
        Instant now = Instant.now();
        Transition to = transitionOf(outcome, attempt.attemptCount(), policy, now);
        boolean applied = settle(attempt, OperationStatus.STARTED, to, now) == 1;
        metrics.targetCall(attempt.target(), outcome.errorClass(), took.toMillis());
        metrics.outcome(attempt.target(), applied ? to.status().dbName() : "refused");
        EventLog.append(em, attempt, actor, applied ? OUTCOME : OUTCOME_REFUSED, now, attempt.attemptCount(),
                to.status(), outcome.httpStatus(), outcome.errorClass(), took.toMillis(), describe(outcome));
        return new Recorded(current(attempt), applied);
    }

    /** Records what a look-up by our key found for an operation whose outcome was unknown. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Settlement reconciled(OperationView unknown, Lookup lookup, RetryPolicy policy, String actor, boolean canResend) {
        Instant now = Instant.now();
        int attempt = unknown.attemptCount();
        boolean retry = false;
        int written;
        // whether a re-send would still be authorized: asked only when nothing was found
        ApprovalStanding standing = lookup instanceof Lookup.Absent ? Approval.standing(em, unknown, now) : null;
        String detail = describe(lookup);
        if (lookup instanceof Lookup.Found found) {
            written = settle(unknown, OperationStatus.UNKNOWN,
                    new Transition(OperationStatus.SUCCEEDED, found.objectId(), found.result(), null, null), now);
        } else if (lookup instanceof Lookup.Failed failed) {
            written = settle(unknown, OperationStatus.UNKNOWN, new Transition(OperationStatus.FAILED_FINAL, null,
                    detail(failed.detail() + " (target object " + failed.objectId() + ")"), failed.errorCode(), null), now);
        } else if (lookup instanceof Lookup.Absent && unknown.settleAfter() != null && now.isBefore(unknown.settleAfter())) {
            written = awaitSettle(unknown, now); // the lost request may still be executing at the target
            detail = "absent, but inside the settle window: not yet proof that nothing happened";
        } else if (lookup instanceof Lookup.Absent && policy.exhausted(attempt)) {
            written = settle(unknown, OperationStatus.UNKNOWN, exhausted(attempt, "no effect found"), now);
        } else if (lookup instanceof Lookup.Absent && !standing.permitsAttempt()) {
            // nothing happened, and the approval no longer stands: a new attempt is not authorized
            written = settle(unknown, OperationStatus.UNKNOWN, new Transition(OperationStatus.FAILED_FINAL, null,
                    detail("no effect found; the approval was " + standing.dbName() + ", so nothing was sent again"),
                    standing.lapseCode(), null), now);
            detail = "absent; approval " + standing.dbName() + ": failed for good, nothing sent";
        } else if (lookup instanceof Lookup.Absent && !canResend) {
            // the resend needs fields the journal never kept: the caller's next call sends it
            written = settle(unknown, OperationStatus.UNKNOWN,
                    new Transition(OperationStatus.FAILED_RETRYABLE, null, null, "awaiting_caller", now), now);
            detail = "absent; the next attempt needs withheld fields " + unknown.withheldFields() + " from the caller";
        } else if (lookup instanceof Lookup.Absent) {
            written = retry(unknown, now);
            retry = written == 1;
        } else {
            written = postpone(unknown, lookup, now);
        }
        EventLog.append(em, unknown, actor, written == 1 ? RECONCILED : OUTCOME_REFUSED, now, attempt,
                OperationStatus.UNKNOWN, detail);
        if (retry) {
            EventLog.append(em, unknown, actor, ATTEMPT_STARTED, now, attempt + 1, OperationStatus.STARTED,
                    "look-up found no effect of attempt " + attempt);
        }
        OperationView after = current(unknown);
        metrics.reconciled(unknown.target(), written == 1 ? lookupName(lookup) : "refused");
        if (written == 1 && after.escalatedAt() != null) {
            escalated(after, lookup, actor, now);
            metrics.escalated(unknown.target());
        }
        return new Settlement(after, retry);
    }

    private void escalated(OperationView operation, Lookup lookup, String actor, Instant now) {
        String why = lookup instanceof Lookup.Ambiguous
                ? "DUPLICATE EFFECT: " + describe(lookup)
                : operation.reconcileCount() + " look-ups could not settle the outcome";
        EventLog.append(em, operation, actor, ESCALATED, now, operation.attemptCount(), OperationStatus.UNKNOWN, why);
    }

    private Transition transitionOf(Outcome outcome, int attempt, RetryPolicy policy, Instant now) {
        if (outcome instanceof Outcome.Succeeded s) {
            return new Transition(OperationStatus.SUCCEEDED, s.objectId(), s.result(), null, null);
        }
        if (outcome instanceof Outcome.Rejected r) {
            return new Transition(OperationStatus.FAILED_FINAL, null, detail(r.detail()), r.errorCode(), null);
        }
        if (outcome instanceof Outcome.Transient t) {
            if (policy.exhausted(attempt)) {
                return exhausted(attempt, "the last: " + t.errorCode());
            }
            Duration wait = policy.delayBefore(attempt + 1, t.retryAfter(), ThreadLocalRandom.current()::nextDouble);
            return new Transition(OperationStatus.FAILED_RETRYABLE, null, null, t.errorCode(), now.plus(wait));
        }
        if (outcome instanceof Outcome.Pending p) { // the target has it: look again after its hint, never resend
            Duration wait = p.retryAfter() != null ? p.retryAfter() : policy.initialDelay();
            return new Transition(OperationStatus.UNKNOWN, p.objectId(), null, "target_pending", now.plus(wait));
        }
        return new Transition(OperationStatus.UNKNOWN, null, null, ((Outcome.Unknown) outcome).errorCode(), now);
    }

    private static Transition exhausted(int attempts, String why) {
        return new Transition(OperationStatus.FAILED_FINAL, null, detail(attempts + " attempts, none executed; " + why),
                "retries_exhausted", null);
    }

    private int settle(OperationView row, OperationStatus expected, Transition to, Instant now) {
        boolean unknown = to.status() == OperationStatus.UNKNOWN;
        return em.createNativeQuery(SETTLE)
                .setParameter(1, to.status().dbName())
                .setParameter(2, to.objectId())
                .setParameter(3, to.result() == null ? null : CanonicalJson.write(to.result()))
                .setParameter(4, to.errorCode())
                .setParameter(5, Operation.at(to.nextCheckAt()))
                .setParameter(6, to.status().isTerminal() ? Operation.at(now) : null)
                .setParameter(7, Operation.at(now))
                .setParameter(8, unknown ? Operation.at(now.plus(settings.settleWindow())) : null)
                .setParameter(9, row.tenant())
                .setParameter(10, row.key())
                .setParameter(11, row.attemptCount())
                .setParameter(12, expected.dbName())
                .executeUpdate();
    }

    private int retry(OperationView row, Instant now) {
        return em.createNativeQuery(RETRY)
                .setParameter(1, Operation.at(now.plus(settings.lease())))
                .setParameter(2, Operation.at(now))
                .setParameter(3, row.tenant())
                .setParameter(4, row.key())
                .setParameter(5, row.attemptCount())
                .executeUpdate();
    }

    private int awaitSettle(OperationView row, Instant now) {
        return em.createNativeQuery(AWAIT_SETTLE)
                .setParameter(1, Operation.at(now))
                .setParameter(2, row.tenant())
                .setParameter(3, row.key())
                .setParameter(4, row.attemptCount())
                .executeUpdate();
    }

    private int postpone(OperationView row, Lookup lookup, Instant now) {
        return em.createNativeQuery(POSTPONE)
                .setParameter(1, Operation.at(now))
                .setParameter(2, settings.maxReconcileBackoffSeconds())
                .setParameter(3, lookup instanceof Lookup.Ambiguous) // a duplicate needs a person at once
                .setParameter(4, settings.maxReconciles())
                .setParameter(5, Operation.at(now))
                .setParameter(6, errorCodeOf(lookup))
                .setParameter(7, Operation.at(now))
                .setParameter(8, row.tenant())
                .setParameter(9, row.key())
                .setParameter(10, row.attemptCount())
                .executeUpdate();
    }

    private OperationView current(OperationView row) {
        return em.find(Operation.class, new OperationId(row.tenant(), row.key())).view();
    }

    private static JsonObject detail(String text) {
        return JSON.createObjectBuilder().add("detail", text).build();
    }

    private static String lookupName(Lookup lookup) {
        return lookup.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
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
        if (outcome instanceof Outcome.Pending p) {
            return "target_pending" + (p.objectId() == null ? "" : ": target object " + p.objectId());
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
        if (lookup instanceof Lookup.Failed f) {
            return "target object " + f.objectId() + " failed: " + f.errorCode();
        }
        if (lookup instanceof Lookup.Ambiguous a) {
            return a.objectIds().size() + " objects carry this key: " + a.objectIds();
        }
        return "unavailable: " + ((Lookup.Unavailable) lookup).errorCode();
    }

    private record Transition(OperationStatus status, String objectId, JsonObject result, String errorCode,
                              Instant nextCheckAt) {
    }
}
