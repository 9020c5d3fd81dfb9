package dev.toolgate.reconcile.job;

import dev.toolgate.journal.DueOperations;
import dev.toolgate.journal.OperationView;
import dev.toolgate.reconcile.Reconciled;
import dev.toolgate.reconcile.Reconciler;
import dev.toolgate.trace.Trace;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.util.List;
import java.util.TreeMap;

/**
 * Settles each claimed operation and counts the outcomes into the step's persistent user data,
 * which {@code GET /api/v1/reconciliations/{id}} shows. The {@link Reconciler} is NOT_SUPPORTED:
 * the chunk's transaction is suspended while a target is asked.
 */
@Named
@Dependent
public class ReconcileWriter extends AbstractItemWriter {

    @Inject
    Reconciler reconciler;
    @Inject
    StepContext step;

    @Override
    public void writeItems(List<Object> items) {
        TreeMap<String, Integer> counts = ReconcileCounts.of(step.getPersistentUserData());
        for (Object item : items) {
            OperationView operation = (OperationView) item;
            // the job continues the operation's own trace: its events and log lines join the agent's call
            try (Trace trace = Trace.open(operation.traceId(), operation.key())) {
                Reconciled reconciled = reconciler.settle(operation, DueOperations.ACTOR, null);
                counts.merge(reconciled.outcome(), 1, Integer::sum);
            }
        }
        step.setPersistentUserData(counts);
    }
}
