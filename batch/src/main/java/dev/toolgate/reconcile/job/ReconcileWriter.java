package dev.toolgate.reconcile.job;

import dev.toolgate.journal.DueOperations;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.LeaseRenewals;
import dev.toolgate.journal.OperationView;
import dev.toolgate.journal.Settlement;
import dev.toolgate.reconcile.ConcurrentLookups;
import dev.toolgate.reconcile.Reconciler;
import dev.toolgate.targets.Lookup;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.StructuredLog;
import dev.toolgate.trace.Trace;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
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
 * Settles each claimed operation and counts the outcomes into the step's persistent user data,
 * which {@code GET /api/v1/reconciliations/{id}} shows. The {@link Reconciler} is NOT_SUPPORTED:
 * the chunk's transaction is suspended while a target is asked.
 *
 * <p>A chunk is worked in three steps, each for every item before the next. First the look-ups, side by
 * side up to each target's limit ({@link ConcurrentLookups}), on workers that hold no transaction. Then
 * their records, all in one transaction: one commit for the chunk, not one per item. Then, side by side
 * again, the new attempts the records started (a look-up that found nothing after the settle window).
 *
 * <p>Items were claimed in batches under one lease each; before an item is looked up its lease is renewed
 * once less than half of it is left, so none waits out its lease in the batch — one another instance or an
 * agent took over is skipped ({@code taken_over}). A look-up slower than the lease (many pages) may be joined
 * by another holder; the fenced writes keep that safe: only the newest lease's decision is written. An item
 * whose look-up fails is counted ({@code error}), logged with an incident id, and left to its lease; a record
 * that fails (the journal went away) is every item's of its chunk, all left to their leases. Neither fails
 * the chunk.
 */
@Named
@Dependent
public class ReconcileWriter extends AbstractItemWriter {

    private static final Logger LOG = Logger.getLogger(ReconcileWriter.class.getName());

    @Inject
    Reconciler reconciler;
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
        TreeMap<String, Integer> counts = ReconcileCounts.of(step.getPersistentUserData());
        List<OperationView> operations = items.stream().map(OperationView.class::cast).toList();
        Context run = Context.current(); // the run's span (ReconcileRunTracing), on this thread only: handed to the workers
        List<Item> worked = lookups.each(operations, OperationView::target, operation -> lookUp(run, operation));
        record(worked);
        for (String outcome : lookups.each(worked, item -> item.claimed.target(), this::follow)) {
            counts.merge(outcome, 1, Integer::sum);
        }
        step.setPersistentUserData(counts);
    }

    /**
     * One claimed operation through the chunk's three steps. The job continues the operation's own trace in
     * the journal: its events and log lines join the agent's call. Its span is the run's child, linked to the
     * span that captured the operation, open from the look-up until what followed the record.
     */
    private static final class Item {
        final OperationView claimed;
        final Step span;
        final String traceId;
        Reconciler.Answer answer;
        Settlement settlement;
        String outcome;

        Item(OperationView claimed, Step span, String traceId) {
            this.claimed = claimed;
            this.span = span;
            this.traceId = traceId;
        }
    }

    /** Step 1, on a worker: the lease made sure of, then the look-up. */
    private Item lookUp(Context run, OperationView claimed) {
        OperationAttributes attributes = new OperationAttributes(claimed.tenant(), claimed.key(), claimed.operation(), claimed.target());
        Step span = Spans.linked("toolgate.reconcile_item", run, claimed.traceId(), claimed.spanId(), attributes).attempt(claimed.attemptCount());
        try (Trace trace = Trace.open(claimed.traceId(), claimed.key())) {
            Item item = new Item(claimed, span, Trace.traceId());
            try {
                // a claim more than half of whose lease is left is provably still ours (as at the effect gate)
                Optional<OperationView> held = LeaseRenewals.provablyHeld(claimed.leaseUntil(), settings.lease(), Instant.now())
                        ? Optional.of(claimed) : renewals.renewLookUp(claimed);
                if (held.isEmpty()) {
                    item.outcome = "taken_over";
                } else {
                    Lookup lookup = reconciler.lookUp(held.get());
                    item.answer = new Reconciler.Answer(held.get(), lookup, Reconciler.canResend(held.get(), null), span.context(), item.traceId);
                }
            } catch (RuntimeException e) { // e.g. the journal went away mid-item: its lease expires, and it is claimed again
                StructuredLog.incident(LOG, "reconcile item failed", Map.of(), e);
                item.outcome = "error";
            }
            return item;
        } finally {
            span.leave();
        }
    }

    /** Step 2, on the job's thread: every answer recorded in one transaction. */
    private void record(List<Item> worked) {
        List<Item> answered = worked.stream().filter(item -> item.answer != null).toList();
        if (answered.isEmpty()) {
            return;
        }
        try {
            List<Settlement> settlements = reconciler.record(answered.stream().map(item -> item.answer).toList(), DueOperations.ACTOR);
            for (int i = 0; i < answered.size(); i++) {
                answered.get(i).settlement = settlements.get(i);
            }
        } catch (RuntimeException e) { // nothing of the chunk was written: every item is left to its lease
            StructuredLog.incident(LOG, "recording a reconcile chunk failed", Map.of("items", String.valueOf(answered.size())), e);
            answered.forEach(item -> item.outcome = "error");
        }
    }

    /** Step 3, on a worker: the attempt the record started sent, if it started one; the item's span ended. */
    private String follow(Item item) {
        try (Scope scope = item.span.context().makeCurrent(); Trace trace = Trace.open(item.traceId, item.claimed.key())) {
            if (item.outcome == null) {
                item.outcome = reconciler.follow(item.settlement, item.answer.lookup(), DueOperations.ACTOR, item.answer.leased().payload()).outcome();
            }
        } catch (RuntimeException e) {
            try (Trace trace = Trace.open(item.traceId, item.claimed.key())) {
                StructuredLog.incident(LOG, "reconcile item failed", Map.of(), e);
            }
            item.outcome = "error";
        }
        item.span.outcome(item.outcome).failed("error".equals(item.outcome) ? "item_failed" : null);
        item.span.close();
        return item.outcome;
    }
}
