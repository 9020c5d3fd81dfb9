package dev.toolgate.journal;

import static dev.toolgate.journal.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.journal.EventKind.ESCALATED;
import static dev.toolgate.journal.EventKind.OUTCOME;
import static dev.toolgate.journal.EventKind.OUTCOME_REFUSED;
import static dev.toolgate.journal.EventKind.RECONCILED;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.approval.Approval;
import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.RetryPolicy;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Phase 2: write what a target call or a look-up established, in one short transaction. What to write
 * is decided by the pure tables {@link AttemptOutcomes} and {@link LookupDecisions}; this bean only
 * applies it, fenced by attempt, lease epoch and status, and never to an escalated operation (a
 * person settles those). A write whose fence matches no row is recorded as an event, never applied.
 * The gateway and the reconcile job both record here: one path.
 */
@Stateless
public class OutcomeRecorder {

    private static final String SET = "UPDATE agent_operation_log SET status = ?1, target_object_id = ?2,"
            + " response_json = CAST(?3 AS jsonb), error_code = ?4, lease_until = NULL,"
            + " next_check_at = CAST(?5 AS timestamptz), completed_at = CAST(?6 AS timestamptz), updated_at = ?7,"
            + " settle_after = CAST(?8 AS timestamptz)"
            + " WHERE tenant = ?9 AND operation_key = ?10 AND attempt_count = ?11 AND escalated_at IS NULL";

    /**
     * The attempt's owner settles its row while it holds the lease; after the lease lapsed and a look-up
     * took the row over, only its success still settles it ({@link AttemptOutcomes#settlesAfterLeaseLapsed}).
     */
    public static final String SETTLE_ATTEMPT = SET
            + " AND ((status = 'started' AND lease_epoch = ?12) OR (status = 'unknown' AND CAST(?13 AS boolean)))";

    /** A look-up settles the unknown row it was leased for, and nothing else. */
    public static final String SETTLE_LOOKUP = SET + " AND status = 'unknown' AND lease_epoch = ?12";

    /** Absent after the settle window: the next attempt, under a lease of its own, its look-ups counted afresh. */
    static final String RETRY = "UPDATE agent_operation_log SET status = 'started', attempt_count = attempt_count + 1,"
            + " lease_epoch = lease_epoch + 1, lease_until = ?1, next_check_at = NULL, error_code = NULL, reconcile_count = 0,"
            + " settle_after = NULL, updated_at = ?2"
            + " WHERE tenant = ?3 AND operation_key = ?4 AND attempt_count = ?5 AND lease_epoch = ?6 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    // back-off doubles per failed look-up: 1 s, 2 s, 4 s … up to the ceiling; escalated when LookupDecisions says so
    static final String POSTPONE = "UPDATE agent_operation_log SET lease_until = NULL,"
            + " next_check_at = CAST(?1 AS timestamptz) + make_interval(secs => LEAST(?2, 2 ^ LEAST(reconcile_count, 30))),"
            + " reconcile_count = reconcile_count + 1,"
            + " escalated_at = CASE WHEN CAST(?3 AS boolean) THEN CAST(?4 AS timestamptz) END,"
            + " error_code = ?5, updated_at = ?6"
            + " WHERE tenant = ?7 AND operation_key = ?8 AND attempt_count = ?9 AND lease_epoch = ?10 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    /**
     * An attempt whose lease a look-up took over reports that it has just given up on its request: the
     * target may still be executing it, so absence proves nothing until a settle window from now.
     */
    static final String EXTEND_SETTLE = "UPDATE agent_operation_log SET settle_after = GREATEST(settle_after, CAST(?1 AS timestamptz)),"
            + " updated_at = ?2 WHERE tenant = ?3 AND operation_key = ?4 AND attempt_count = ?5 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    static final String AWAIT_SETTLE = "UPDATE agent_operation_log SET lease_until = NULL,"
            + " next_check_at = settle_after, updated_at = ?1"
            + " WHERE tenant = ?2 AND operation_key = ?3 AND attempt_count = ?4 AND lease_epoch = ?5 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

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
        Transition to = AttemptOutcomes.transition(outcome, attempt.attemptCount(), policy, now, ThreadLocalRandom.current()::nextDouble);
        boolean applied = settle(SETTLE_ATTEMPT, attempt, to, now, AttemptOutcomes.settlesAfterLeaseLapsed(to)) == 1;
        if (!applied && AttemptOutcomes.extendsSettleWindow(outcome)) {
            extendSettle(attempt, now);
        }
        metrics.targetCall(attempt.target(), outcome.errorClass(), took.toMillis());
        metrics.outcome(attempt.target(), applied ? to.status().dbName() : "refused");
        EventLog.append(em, attempt, actor, applied ? OUTCOME : OUTCOME_REFUSED, now, attempt.attemptCount(),
                to.status(), outcome.httpStatus(), outcome.errorClass(), took.toMillis(), describe(outcome));
        return new Recorded(current(attempt), applied);
    }

    /**
     * Records what a look-up by our key found for an operation whose outcome was unknown. The row is
     * locked first, so the approval read for a new attempt is the one in force when the attempt starts:
     * a revoke commits either before this (and is seen) or after the attempt's lease is taken.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Settlement reconciled(OperationView leased, Lookup lookup, RetryPolicy policy, String actor, boolean canResend) {
        Instant now = Instant.now();
        Operation row = em.find(Operation.class, new OperationId(leased.tenant(), leased.key()), LockModeType.PESSIMISTIC_WRITE);
        OperationView current = row.view();
        ApprovalStanding standing = lookup instanceof Lookup.Absent ? Approval.standing(em, current, now) : null;
        LookupDecision decision = LookupDecisions.decide(leased, current, lookup, standing, policy, settings.maxReconciles(), canResend, now);
        boolean written = apply(decision, leased, now);
        int attempt = leased.attemptCount();
        EventLog.append(em, leased, actor, written ? RECONCILED : OUTCOME_REFUSED, now, attempt, OperationStatus.UNKNOWN,
                detailOf(decision, lookup));
        boolean retry = written && decision instanceof LookupDecision.Retry;
        if (retry) {
            EventLog.append(em, leased, actor, ATTEMPT_STARTED, now, attempt + 1, OperationStatus.STARTED,
                    "look-up found no effect of attempt " + attempt);
        }
        em.refresh(row);
        OperationView after = row.view();
        metrics.reconciled(leased.target(), written ? lookup.metricName() : "refused");
        if (written && after.escalatedAt() != null) {
            escalated(after, lookup, actor, now);
            metrics.escalated(leased.target());
        }
        return new Settlement(after, retry);
    }

    private boolean apply(LookupDecision decision, OperationView leased, Instant now) {
        if (decision instanceof LookupDecision.Settle settle) {
            return settle(SETTLE_LOOKUP, leased, settle.to(), now, false) == 1;
        }
        if (decision instanceof LookupDecision.AwaitSettle) {
            return awaitSettle(leased, now) == 1;
        }
        if (decision instanceof LookupDecision.Retry) {
            return retry(leased, now) == 1;
        }
        if (decision instanceof LookupDecision.Postpone postpone) {
            return postpone(leased, postpone, now) == 1;
        }
        if (decision instanceof LookupDecision.Refused) {
            return false;
        }
        throw new IllegalArgumentException("a look-up decision this recorder does not apply: " + decision);
    }

    private static String detailOf(LookupDecision decision, Lookup lookup) {
        if (decision instanceof LookupDecision.Refused refused) {
            return describe(lookup) + "; not written: " + refused.why();
        }
        if (decision instanceof LookupDecision.Settle settle) {
            return settle.detail();
        }
        if (decision instanceof LookupDecision.AwaitSettle) {
            return "absent, but inside the settle window: not yet proof that nothing happened";
        }
        return describe(lookup);
    }

    private void escalated(OperationView operation, Lookup lookup, String actor, Instant now) {
        String why = lookup instanceof Lookup.Ambiguous
                ? "DUPLICATE EFFECT: " + describe(lookup)
                : operation.reconcileCount() + " look-ups could not settle the outcome";
        EventLog.append(em, operation, actor, ESCALATED, now, operation.attemptCount(), OperationStatus.UNKNOWN, why);
    }

    private int settle(String sql, OperationView row, Transition to, Instant now, boolean lateSuccess) {
        boolean unknown = to.status() == OperationStatus.UNKNOWN;
        var update = em.createNativeQuery(sql)
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
                .setParameter(12, row.leaseEpoch());
        if (sql.equals(SETTLE_ATTEMPT)) {
            update.setParameter(13, lateSuccess);
        }
        return update.executeUpdate();
    }

    private int retry(OperationView row, Instant now) {
        return em.createNativeQuery(RETRY)
                .setParameter(1, Operation.at(now.plus(settings.lease())))
                .setParameter(2, Operation.at(now))
                .setParameter(3, row.tenant())
                .setParameter(4, row.key())
                .setParameter(5, row.attemptCount())
                .setParameter(6, row.leaseEpoch())
                .executeUpdate();
    }

    private void extendSettle(OperationView row, Instant now) {
        em.createNativeQuery(EXTEND_SETTLE)
                .setParameter(1, Operation.at(SettleWindows.afterUnknownOutcome(now, settings.settleWindow())))
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
                .setParameter(5, row.leaseEpoch())
                .executeUpdate();
    }

    private int postpone(OperationView row, LookupDecision.Postpone postpone, Instant now) {
        return em.createNativeQuery(POSTPONE)
                .setParameter(1, Operation.at(now))
                .setParameter(2, settings.maxReconcileBackoffSeconds())
                .setParameter(3, postpone.escalateNow())
                .setParameter(4, Operation.at(now))
                .setParameter(5, postpone.errorCode())
                .setParameter(6, Operation.at(now))
                .setParameter(7, row.tenant())
                .setParameter(8, row.key())
                .setParameter(9, row.attemptCount())
                .setParameter(10, row.leaseEpoch())
                .executeUpdate();
    }

    private OperationView current(OperationView row) {
        return em.find(Operation.class, new OperationId(row.tenant(), row.key())).view();
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
        if (outcome instanceof Outcome.Transient t) {
            return t.errorCode();
        }
        if (outcome instanceof Outcome.Unknown u) {
            return u.errorCode();
        }
        throw new IllegalArgumentException("an outcome this recorder cannot describe: " + outcome);
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
        if (lookup instanceof Lookup.Unavailable u) {
            return "unavailable: " + u.errorCode();
        }
        throw new IllegalArgumentException("a look-up this recorder cannot describe: " + lookup);
    }
}
