package dev.toolgate.journal;

import static dev.toolgate.canonical.Jsons.JSON;
import static dev.toolgate.journal.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.journal.EventKind.ESCALATED;
import static dev.toolgate.journal.EventKind.OUTCOME_REFUSED;
import static dev.toolgate.journal.EventKind.RECONCILED;

import dev.toolgate.approval.Approval;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicy;
import dev.toolgate.trace.Trace;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Phase 2 for a look-up: writes what look-ups by our key established for unknown operations, a batch
 * of them (the reconcile job's chunk, or a caller's one) in one short transaction. What to write is {@link LookupDecisions}'s; this bean only applies it
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
     * Locks every row of a batch in one statement (?1: a JSON array of {tenant, operation_key}), in key
     * order, so two batches that met on a row would wait for each other rather than deadlock.
     */
    static final String LOCK = "SELECT o.* FROM agent_operation_log o"
            + " JOIN jsonb_to_recordset(CAST(?1 AS jsonb)) AS b(tenant text, operation_key text)"
            + " ON o.tenant = b.tenant AND o.operation_key = b.operation_key"
            + " ORDER BY o.tenant, o.operation_key FOR UPDATE OF o";

    /**
     * What a look-up by our key found for an operation whose outcome was unknown, to be recorded:
     * {@code traceId} is the trace its events name (the caller's, or in the job the operation's own).
     */
    public record LookedUp(OperationView leased, Lookup lookup, RetryPolicy policy, boolean canResend, String traceId) {
    }

    /**
     * Records the look-ups of a batch in one transaction, one commit for all: the rows are locked
     * first, together, so the approval read for a new attempt is the one in force when the attempt
     * starts (a revoke commits either before this and is seen, or after the attempt's lease is taken);
     * then each item's decision is written by its own fenced statement with its events. The
     * settlements come back in the items' order. A failure fails the whole batch: nothing of it is
     * written, and each item is left to its lease, to be looked up again.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<Settlement> reconciled(List<LookedUp> batch, String actor) {
        Instant now = Instant.now();
        Map<OperationId, Operation> rows = lock(batch);
        List<Settlement> settlements = new ArrayList<>(batch.size());
        for (LookedUp item : batch) {
            OperationView leased = item.leased();
            Operation row = rows.get(new OperationId(leased.tenant(), leased.key()));
            if (row == null) { // an unfinished row is never purged: only a broken journal gets here
                throw new IllegalStateException("no journal row for " + leased.key());
            }
            try (Trace trace = Trace.open(item.traceId(), leased.key())) {
                settlements.add(record(item, row.view(), actor, now));
            }
        }
        return settlements;
    }

    private Map<OperationId, Operation> lock(List<LookedUp> batch) {
        JsonArrayBuilder ids = JSON.createArrayBuilder();
        for (LookedUp item : batch) {
            ids.add(JSON.createObjectBuilder().add("tenant", item.leased().tenant()).add("operation_key", item.leased().key()));
        }
        Map<OperationId, Operation> rows = new HashMap<>();
        for (Object locked : em.createNativeQuery(LOCK, Operation.class).setParameter(1, ids.build().toString()).getResultList()) {
            Operation row = (Operation) locked;
            rows.put(new OperationId(row.view().tenant(), row.view().key()), row);
        }
        return rows;
    }

    private Settlement record(LookedUp item, OperationView current, String actor, Instant now) {
        OperationView leased = item.leased();
        Lookup lookup = item.lookup();
        ApprovalStanding standing = lookup instanceof Lookup.Absent ? Approval.standing(em, current, now) : null;
        LookupDecision decision = LookupDecisions.decide(leased, current, lookup, standing, item.policy(), settings.maxReconciles(),
                item.canResend(), now);
        String detail = detailOf(decision, lookup);
        int attempt = leased.attemptCount();
        boolean retry = decision instanceof LookupDecision.Retry;
        String nextAttempt = retry ? "look-up found no effect of attempt " + attempt : null;
        Optional<Operation> written = apply(decision, leased, now, actor, detail, nextAttempt);
        // the row is locked: unwritten, it is still what was read
        OperationView after = written.map(Operation::view).orElse(current);
        if (!(decision instanceof LookupDecision.Refused)) { // a refused decision's event logs itself (apply)
            EventLog.logOnCommit(leased, actor, written.isPresent() ? RECONCILED : OUTCOME_REFUSED, attempt, OperationStatus.UNKNOWN, detail);
        }
        if (retry && written.isPresent()) {
            EventLog.logOnCommit(leased, actor, ATTEMPT_STARTED, attempt + 1, OperationStatus.STARTED, nextAttempt);
        }
        metrics.reconciled(leased.target(), written.isPresent() ? lookup.metricName() : "refused");
        if (written.isPresent() && after.escalatedAt() != null) {
            escalated(after, lookup, actor, now);
            metrics.escalated(leased.target());
        }
        return new Settlement(after, retry && written.isPresent());
    }

    /** The decision's fenced write with its events, one statement; a refused decision writes only its event. */
    private Optional<Operation> apply(LookupDecision decision, OperationView leased, Instant now, String actor, String detail,
                                      String nextAttempt) {
        if (decision instanceof LookupDecision.Settle settle) {
            return FencedWrites.lookedUp(em, FencedWrites.SETTLE_LOOKUP_LOGGED,
                    q -> FencedWrites.bindSet(q, leased, settle.to(), now, settings.settleWindow()), leased, now, actor, detail, null);
        }
        if (decision instanceof LookupDecision.AwaitSettle) {
            return FencedWrites.lookedUp(em, FencedWrites.AWAIT_SETTLE_LOGGED,
                    q -> FencedWrites.bindAwaitSettle(q, leased, now), leased, now, actor, detail, null);
        }
        if (decision instanceof LookupDecision.Retry) {
            return FencedWrites.lookedUp(em, FencedWrites.RETRY_LOGGED,
                    q -> FencedWrites.bindRetry(q, leased, now, settings.lease()), leased, now, actor, detail, nextAttempt);
        }
        if (decision instanceof LookupDecision.Postpone postpone) {
            return FencedWrites.lookedUp(em, FencedWrites.POSTPONE_LOGGED,
                    q -> FencedWrites.bindPostpone(q, leased, postpone, now, settings.maxReconcileBackoffSeconds()),
                    leased, now, actor, detail, null);
        }
        if (decision instanceof LookupDecision.Refused) {
            EventLog.append(em, leased, actor, OUTCOME_REFUSED, now, leased.attemptCount(), OperationStatus.UNKNOWN, detail);
            return Optional.empty();
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
