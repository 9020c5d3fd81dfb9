package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.LookupDecision;
import dev.toolgate.lifecycle.decisions.LookupDecisions;

import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static dev.toolgate.operation.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.operation.EventKind.ESCALATED;
import static dev.toolgate.operation.EventKind.OUTCOME_REFUSED;
import static dev.toolgate.operation.EventKind.RECONCILED;

import dev.toolgate.approval.Approval;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.RetryPolicy;
import dev.toolgate.trace.Trace;
import dev.toolgate.journal.OperationId;
import static dev.toolgate.canonical.Jsons.JSON;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Phase 2 for a look-up: applies {@link LookupDecisions}'s decision in one short transaction. The gateway's callers
 * and the reconcile job both record here.
 */
@Stateless
public class LookupRecorder {

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;
    @Inject
    GatewayMetrics metrics;
    @Inject
    RetryPolicies policies;

    /** Runs what a chunk's record counts once its transaction commits (a test without a container runs it at once). */
    Consumer<Runnable> afterCommit = EventLog::onCommit;

    /**
     * A found or failed object settles the row as long as the look-up still owns it, which the fenced write checks
     * itself: one statement. Any other answer, and a settle the fence kept out, first lock the row: the decision depends
     * on what it holds now, and the approval read for a new attempt must be the one in force when it starts.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Phase reconciled(OperationView leased, Lookup lookup, RetryPolicy policy, String actor, boolean canResend) {
        Instant now = Instant.now();
        // the claim's own view decides a found or failed object: the lease it holds is what the write is fenced by
        LookupDecision settle = lookup instanceof Lookup.Found || lookup instanceof Lookup.Failed
                ? LookupDecisions.decide(leased, leased, lookup, null, policy, settings.maxReconciles(), canResend, now) : null;
        Connection journal = JournalConnections.of(em);
        if (settle instanceof LookupDecision.Settle) {
            String detail = detailOf(settle, lookup);
            Optional<OperationView> written = apply(journal, settle, leased, now, actor, detail, null);
            if (written.isPresent()) {
                EventLog.logOnCommit(leased, actor, RECONCILED, leased.attemptCount(), OperationStatus.UNKNOWN, detail);
                metrics.reconciled(leased.target(), lookup.metricName());
                return Phase.lookedUp(leased, written.get(), false, lookup);
            }
        }
        return underLock(journal, leased, lookup, policy, actor, canResend, now);
    }

    /**
     * The reconcile job's look-ups of one chunk, recorded in one transaction: the found and failed objects settled by
     * one statement, decided on the claim's own views; every other answer, and a settle the fence kept out, decided
     * and written row by row under its lock, as {@link #reconciled} does. No caller is present: a row with withheld
     * fields cannot be sent again. The phases come back in the items' order.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<Phase> reconciledAll(List<OperationView> leased, List<Lookup> lookups, String actor) {
        Instant now = Instant.now();
        Connection journal = JournalConnections.of(em);
        JsonArrayBuilder settling = JSON.createArrayBuilder();
        Map<OperationId, Integer> settles = new HashMap<>();
        String[] details = new String[leased.size()];
        for (int i = 0; i < leased.size(); i++) {
            OperationView row = leased.get(i);
            Lookup lookup = lookups.get(i);
            if (lookup instanceof Lookup.Found || lookup instanceof Lookup.Failed) {
                LookupDecision decision = LookupDecisions.decide(row, row, lookup, null, policies.of(row.target()), settings.maxReconciles(),
                        row.withheldFields().isEmpty(), now);
                if (decision instanceof LookupDecision.Settle settle) {
                    settling.add(FencedWrites.settling(row, settle.to(), now, settings.settleWindow(), settle.detail()));
                    settles.put(new OperationId(row.tenant(), row.key()), i);
                    details[i] = settle.detail();
                }
            }
        }
        Phase[] phases = new Phase[leased.size()];
        List<Runnable> counts = new ArrayList<>(); // counted once the chunk commits: a chunk rolled back is recorded again
        if (!settles.isEmpty()) {
            for (OperationView written : FencedWrites.settleLookups(journal, settling.build(), now, actor)) {
                int i = settles.get(new OperationId(written.tenant(), written.key()));
                OperationView row = leased.get(i);
                Lookup lookup = lookups.get(i);
                try (Trace trace = Trace.open(row.traceId(), row.key())) {
                    EventLog.logOnCommit(row, actor, RECONCILED, row.attemptCount(), OperationStatus.UNKNOWN, details[i]);
                }
                counts.add(() -> metrics.reconciled(row.target(), lookup.metricName()));
                phases[i] = Phase.lookedUp(row, written, false, lookup);
            }
        }
        List<OperationView> rest = new ArrayList<>();
        for (int i = 0; i < phases.length; i++) {
            if (phases[i] == null) {
                rest.add(leased.get(i));
            }
        }
        Map<OperationId, OperationView> locked = rest.isEmpty() ? Map.of() : OperationRows.lockedAll(journal, rest);
        OperationView[] current = new OperationView[phases.length];
        LookupDecision[] retries = new LookupDecision[phases.length];
        JsonArrayBuilder retrying = JSON.createArrayBuilder();
        for (int i = 0; i < phases.length; i++) {
            if (phases[i] == null) {
                OperationView row = leased.get(i);
                current[i] = locked.get(new OperationId(row.tenant(), row.key()));
                if (current[i] == null) { // the journal holds every claimed row until it is purged, long after it settled
                    throw new IllegalStateException("a claimed operation's row is gone: " + row.key());
                }
                Lookup lookup = lookups.get(i);
                LookupDecision decision = decisionOn(row, current[i], lookup, policies.of(row.target()), row.withheldFields().isEmpty(), now);
                if (decision instanceof LookupDecision.Retry) { // the next attempts, leased together below
                    retries[i] = decision;
                    retrying.add(FencedWrites.retrying(row, detailOf(decision, lookup), nextAttempt(row)));
                    continue;
                }
                try (Trace trace = Trace.open(row.traceId(), row.key())) {
                    phases[i] = applied(journal, row, current[i], lookup, decision, actor, now, counts::add);
                }
            }
        }
        JsonArray retried = retrying.build();
        if (!retried.isEmpty()) {
            Map<OperationId, OperationView> written = new HashMap<>();
            for (OperationView row : FencedWrites.retryAll(journal, retried, now, settings.lease(), actor)) {
                written.put(new OperationId(row.tenant(), row.key()), row);
            }
            for (int i = 0; i < phases.length; i++) {
                if (retries[i] != null) {
                    OperationView row = leased.get(i);
                    try (Trace trace = Trace.open(row.traceId(), row.key())) {
                        phases[i] = recorded(row, current[i], lookups.get(i), retries[i],
                                Optional.ofNullable(written.get(new OperationId(row.tenant(), row.key()))), actor, now, counts::add);
                    }
                }
            }
        }
        afterCommit.accept(() -> counts.forEach(Runnable::run));
        return Arrays.asList(phases);
    }

    private Phase underLock(Connection journal, OperationView leased, Lookup lookup, RetryPolicy policy, String actor,
                            boolean canResend, Instant now) {
        return decided(journal, leased, OperationRows.locked(journal, leased), lookup, policy, actor, canResend, now, Runnable::run);
    }

    /**
     * The look-up's decision on {@code current}, the row as it is now and locked by this transaction, applied.
     * {@code count}: what to do with the metrics it gives, which must not outlive a rollback.
     */
    private Phase decided(Connection journal, OperationView leased, OperationView current, Lookup lookup, RetryPolicy policy,
                          String actor, boolean canResend, Instant now, Consumer<Runnable> count) {
        LookupDecision decision = decisionOn(leased, current, lookup, policy, canResend, now);
        return applied(journal, leased, current, lookup, decision, actor, now, count);
    }

    /** What the look-up decides on the locked row: the approval in force is read only for an absence, which may retry. */
    private LookupDecision decisionOn(OperationView leased, OperationView current, Lookup lookup, RetryPolicy policy, boolean canResend,
                                      Instant now) {
        ApprovalStanding standing = lookup instanceof Lookup.Absent ? Approval.standing(em, current, now) : null;
        return LookupDecisions.decide(leased, current, lookup, standing, policy, settings.maxReconciles(), canResend, now);
    }

    private Phase applied(Connection journal, OperationView leased, OperationView current, Lookup lookup, LookupDecision decision,
                          String actor, Instant now, Consumer<Runnable> count) {
        String detail = detailOf(decision, lookup);
        boolean retry = decision instanceof LookupDecision.Retry;
        Optional<OperationView> written = apply(journal, decision, leased, now, actor, detail, retry ? nextAttempt(leased) : null);
        return recorded(leased, current, lookup, decision, written, actor, now, count);
    }

    /** The next attempt's event detail when a look-up found no effect of the last. */
    private static String nextAttempt(OperationView leased) {
        return "look-up found no effect of attempt " + leased.attemptCount();
    }

    /** A decision's write, done or kept out, journaled, logged and counted; the row as it now stands. */
    private Phase recorded(OperationView leased, OperationView current, Lookup lookup, LookupDecision decision,
                           Optional<OperationView> written, String actor, Instant now, Consumer<Runnable> count) {
        String detail = detailOf(decision, lookup);
        int attempt = leased.attemptCount();
        boolean retry = decision instanceof LookupDecision.Retry;
        // the row is locked: unwritten, it is still what was read
        OperationView after = written.orElse(current);
        if (written.isPresent()) {
            EventLog.logOnCommit(leased, actor, RECONCILED, attempt, OperationStatus.UNKNOWN, detail);
        } else if (!(decision instanceof LookupDecision.Refused)) { // a refused decision journaled its event (apply)
            // the row is locked and was checked: the fence cannot keep this write out, but if it did, say so
            EventLog.append(em, leased, actor, OUTCOME_REFUSED, now, attempt, OperationStatus.UNKNOWN, detail + "; not written: the fence kept it out");
        }
        if (retry && written.isPresent()) {
            EventLog.logOnCommit(leased, actor, ATTEMPT_STARTED, attempt + 1, OperationStatus.STARTED, nextAttempt(leased));
        }
        count.accept(() -> metrics.reconciled(leased.target(), written.isPresent() ? lookup.metricName() : "refused"));
        if (written.isPresent() && after.escalatedAt() != null) {
            escalated(after, lookup, actor, now);
            count.accept(() -> metrics.escalated(leased.target()));
        }
        return Phase.lookedUp(leased, after, retry && written.isPresent(), lookup);
    }

    private Optional<OperationView> apply(Connection journal, LookupDecision decision, OperationView leased, Instant now, String actor,
                                          String detail, String nextAttempt) {
        if (decision instanceof LookupDecision.Settle settle) {
            return FencedWrites.lookedUp(journal, OperationWrites.SETTLE_LOOKUP_LOGGED,
                    FencedWrites.set(leased, settle.to(), now, settings.settleWindow()), leased, now, actor, detail, null);
        }
        if (decision instanceof LookupDecision.AwaitSettle) {
            return FencedWrites.lookedUp(journal, OperationWrites.AWAIT_SETTLE_LOGGED,
                    FencedWrites.awaitSettle(leased, now), leased, now, actor, detail, null);
        }
        if (decision instanceof LookupDecision.Retry) {
            return FencedWrites.lookedUp(journal, OperationWrites.RETRY_LOGGED,
                    FencedWrites.retry(leased, now, settings.lease()), leased, now, actor, detail, nextAttempt);
        }
        if (decision instanceof LookupDecision.Postpone postpone) {
            return FencedWrites.lookedUp(journal, OperationWrites.POSTPONE_LOGGED,
                    FencedWrites.postpone(leased, postpone, now, settings.maxReconcileBackoffSeconds()), leased, now, actor, detail, null);
        }
        if (decision instanceof LookupDecision.Release) { // the same parameters as the settle window's wait: the row's fence
            return FencedWrites.lookedUp(journal, OperationWrites.RELEASE_LOGGED,
                    FencedWrites.awaitSettle(leased, now), leased, now, actor, detail, null);
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
        if (decision instanceof LookupDecision.Release) {
            return describe(lookup) + "; looked up before it was due: its schedule and look-up count stay as they were";
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
