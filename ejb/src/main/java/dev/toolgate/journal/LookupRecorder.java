package dev.toolgate.journal;

import static dev.toolgate.journal.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.journal.EventKind.ESCALATED;
import static dev.toolgate.journal.EventKind.OUTCOME_REFUSED;
import static dev.toolgate.journal.EventKind.RECONCILED;

import dev.toolgate.approval.Approval;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicy;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;

/**
 * Phase 2 for a look-up: writes what a look-up by our key established for an unknown operation, in
 * one short transaction. What to write is {@link LookupDecisions}'s; this bean only applies it
 * ({@link FencedWrites}). The gateway's callers and the reconcile job both record here: one path.
 */
@Stateless
public class LookupRecorder {

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;
    @Inject
    GatewayMetrics metrics;

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
            return FencedWrites.settle(em, FencedWrites.SETTLE_LOOKUP, leased, settle.to(), now, settings.settleWindow()) == 1;
        }
        if (decision instanceof LookupDecision.AwaitSettle) {
            return FencedWrites.awaitSettle(em, leased, now) == 1;
        }
        if (decision instanceof LookupDecision.Retry) {
            return FencedWrites.retry(em, leased, now, settings.lease()) == 1;
        }
        if (decision instanceof LookupDecision.Postpone postpone) {
            return FencedWrites.postpone(em, leased, postpone, now, settings.maxReconcileBackoffSeconds()) == 1;
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
            return a.describe();
        }
        if (lookup instanceof Lookup.Unavailable u) {
            return "unavailable: " + u.errorCode();
        }
        throw new IllegalArgumentException("a look-up this recorder cannot describe: " + lookup);
    }
}
