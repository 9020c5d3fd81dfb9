package dev.toolgate.lifecycle;

import static dev.toolgate.canonical.Jsons.JSON;
import static dev.toolgate.operation.EventKind.RECONCILED;

import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.OperationId;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.lifecycle.decisions.LookupDecision;
import dev.toolgate.lifecycle.decisions.LookupDecisions;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.RetryPolicy;
import dev.toolgate.trace.Trace;
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
 * Phase 2 of a look-up: applies {@link LookupDecisions} in one short transaction, to one answer ({@link #reconciled})
 * or to a reconcile chunk's in as few statements as they allow ({@link #reconciledAll}), both through {@link LookupWrites}.
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
        LookupDecision settle = lookup instanceof Lookup.Found || lookup instanceof Lookup.Failed
                ? LookupDecisions.decide(leased, leased, lookup, null, policy, settings.maxReconciles(), canResend, now) : null;
        Connection journal = JournalConnections.of(em);
        LookupWrites writes = writes();
        if (settle instanceof LookupDecision.Settle) {
            String detail = LookupWrites.detailOf(settle, lookup);
            Optional<OperationView> written = writes.apply(journal, settle, leased, now, actor, detail, null);
            if (written.isPresent()) {
                EventLog.logOnCommit(leased, actor, RECONCILED, leased.attemptCount(), OperationStatus.UNKNOWN, detail);
                metrics.reconciled(leased.target(), lookup.metricName());
                return Phase.lookedUp(leased, written.get(), false, lookup);
            }
        }
        OperationView current = OperationRows.locked(journal, leased);
        LookupDecision decision = writes.decisionOn(leased, current, lookup, policy, canResend, now);
        return writes.applied(journal, leased, current, lookup, decision, actor, now, Runnable::run);
    }

    /**
     * A reconcile chunk's look-ups in one transaction, each decided as {@link #reconciled} does, the found and failed
     * objects settled by one statement and the retries leased by another. No caller is present: a row with withheld
     * fields cannot be sent again. Phases in the items' order.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<Phase> reconciledAll(List<OperationView> leased, List<Lookup> lookups, String actor) {
        Instant now = Instant.now();
        Connection journal = JournalConnections.of(em);
        LookupWrites writes = writes();
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
                LookupDecision decision = writes.decisionOn(row, current[i], lookup, policies.of(row.target()), row.withheldFields().isEmpty(), now);
                if (decision instanceof LookupDecision.Retry) { // the next attempts, leased together below
                    retries[i] = decision;
                    retrying.add(FencedWrites.retrying(row, LookupWrites.detailOf(decision, lookup), LookupWrites.nextAttempt(row)));
                    continue;
                }
                try (Trace trace = Trace.open(row.traceId(), row.key())) {
                    phases[i] = writes.applied(journal, row, current[i], lookup, decision, actor, now, counts::add);
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
                        phases[i] = writes.recorded(row, current[i], lookups.get(i), retries[i],
                                Optional.ofNullable(written.get(new OperationId(row.tenant(), row.key()))), actor, now, counts::add);
                    }
                }
            }
        }
        afterCommit.accept(() -> counts.forEach(Runnable::run));
        return Arrays.asList(phases);
    }

    private LookupWrites writes() {
        return new LookupWrites(em, settings, metrics);
    }
}
