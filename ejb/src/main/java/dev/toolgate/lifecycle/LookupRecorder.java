package dev.toolgate.lifecycle;

import static dev.toolgate.operation.EventKind.RECONCILED;

import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.lifecycle.decisions.LookupDecision;
import dev.toolgate.lifecycle.decisions.LookupDecisions;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicy;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.sql.Connection;
import java.time.Instant;
import java.util.Optional;

/**
 * Phase 2 for one look-up: applies {@link LookupDecisions}'s decision in one short transaction, for an agent's call
 * or the reconcile job's item recorded alone. A chunk's look-ups are {@link ChunkLookupRecorder}'s.
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
            String detail = LookupWrites.detailOf(settle, lookup);
            Optional<OperationView> written = writes().apply(journal, settle, leased, now, actor, detail, null);
            if (written.isPresent()) {
                EventLog.logOnCommit(leased, actor, RECONCILED, leased.attemptCount(), OperationStatus.UNKNOWN, detail);
                metrics.reconciled(leased.target(), lookup.metricName());
                return Phase.lookedUp(leased, written.get(), false, lookup);
            }
        }
        // the row as it is now, locked by this transaction, decides
        OperationView current = OperationRows.locked(journal, leased);
        LookupWrites writes = writes();
        LookupDecision decision = writes.decisionOn(leased, current, lookup, policy, canResend, now);
        return writes.applied(journal, leased, current, lookup, decision, actor, now, Runnable::run);
    }

    private LookupWrites writes() {
        return new LookupWrites(em, settings, metrics);
    }
}
