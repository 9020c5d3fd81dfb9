package dev.toolgate.reconcile.job;

import dev.toolgate.lifecycle.DueOperations;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.lifecycle.LeaseRenewals;
import dev.toolgate.operation.OperationView;
import dev.toolgate.lifecycle.CaptureDecision;
import dev.toolgate.lifecycle.ConcurrentLookups;
import dev.toolgate.lifecycle.OperationLoop;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.StructuredLog;
import dev.toolgate.trace.Trace;
import io.opentelemetry.context.Context;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * Settles each claimed operation and counts the outcomes, per tenant, into the step's persistent user data,
 * which {@code GET /api/v1/reconciliations/{id}} shows. The {@link OperationLoop} is NOT_SUPPORTED:
 * the chunk's transaction is suspended while a target is asked.
 *
 * <p>Items are worked side by side, up to each target's limit ({@link ConcurrentLookups}), on workers
 * that hold no transaction. Items were claimed in batches under one lease each; before an item is worked its lease is
 * renewed once less than half of it is left, so none waits out its lease in the batch — one another instance or an agent took over is
 * skipped ({@code taken_over}). A look-up slower than the lease (many pages) may be joined by another
 * holder; the fenced writes keep that safe: only the newest lease's decision is written. One item that fails is counted ({@code error}), logged with an incident id,
 * and left to its lease: it never fails the chunk and so never delays the items claimed with it.
 */
@Named
@Dependent
public class ReconcileWriter extends AbstractItemWriter {

    private static final Logger LOG = Logger.getLogger(ReconcileWriter.class.getName());

    @Inject
    OperationLoop loop;
    @Inject
    ConcurrentLookups lookups;
    @Inject
    LeaseRenewals renewals;
    @Inject
    JournalSettings settings;
    @Inject
    StepContext step;

    @Override
    public void writeItems(List<Object> items) {
        TreeMap<String, TreeMap<String, Integer>> counts = ReconcileCounts.of(step.getPersistentUserData());
        List<OperationView> operations = items.stream().map(OperationView.class::cast).toList();
        Context run = Context.current(); // the run's span (ReconcileRunTracing), on this thread only: handed to the workers
        List<String> outcomes = lookups.each(operations, OperationView::target, operation -> settleInItsTrace(run, operation));
        for (int i = 0; i < operations.size(); i++) { // in the items' order
            ReconcileCounts.add(counts, operations.get(i).tenant(), outcomes.get(i), 1);
        }
        step.setPersistentUserData(counts);
    }

    /**
     * The job continues the operation's own trace in the journal: its events and log lines join the agent's
     * call. Its span is the run's child, linked to the span that captured the operation.
     */
    private String settleInItsTrace(Context run, OperationView operation) {
        OperationAttributes attributes = new OperationAttributes(operation.tenant(), operation.key(), operation.operation(), operation.target());
        try (Step item = Spans.linked("toolgate.reconcile_item", run, operation.traceId(), operation.spanId(), attributes);
             Trace trace = Trace.open(operation.traceId(), operation.key())) {
            item.attempt(operation.attemptCount());
            String outcome = settle(operation);
            item.outcome(outcome).failed("error".equals(outcome) ? "item_failed" : null);
            return outcome;
        }
    }

    private String settle(OperationView claimed) {
        try {
            // a claim more than half of whose lease is left is provably still ours (as at the effect gate)
            Optional<OperationView> held = LeaseRenewals.provablyHeld(claimed.leaseUntil(), settings.lease(), Instant.now())
                    ? Optional.of(claimed) : renewals.renewLookUp(claimed);
            if (held.isEmpty()) {
                return "taken_over";
            }
            // the claim leased the row for a look-up, as a capture's Reconcile decision does for an agent
            return loop.drive(new CaptureDecision.Reconcile(), held.get(), DueOperations.ACTOR, null).outcome();
        } catch (RuntimeException e) { // e.g. the journal went away mid-item: its lease expires, and it is claimed again
            StructuredLog.incident(LOG, "reconcile item failed", Map.of(), e);
            return "error";
        }
    }
}
