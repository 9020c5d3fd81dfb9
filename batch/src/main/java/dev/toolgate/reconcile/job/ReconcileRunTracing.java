package dev.toolgate.reconcile.job;

import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.batch.api.listener.AbstractStepListener;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * A reconcile run as a trace of its own: no agent waits on it, so it is nobody's child. Its span is current on the
 * step's thread (the batch runtime runs a step's listener and its chunks on one), each item its child
 * ({@link ReconcileWriter}). When the step ends, the span carries the run's counts, every tenant's summed.
 */
@Named
@Dependent
public class ReconcileRunTracing extends AbstractStepListener {

    @Inject
    JobContext job;
    @Inject
    StepContext step;

    @Override
    public void beforeStep() {
        Step run = Spans.root("toolgate.reconcile", OperationAttributes.none()).set("toolgate.job_execution_id", job.getExecutionId());
        step.setTransientUserData(run);
    }

    @Override
    public void afterStep() {
        if (step.getTransientUserData() instanceof Step run) {
            ReconcileCounts.totals(step.getPersistentUserData()).forEach((outcome, count) -> run.set("toolgate.reconciled." + outcome, count));
            if (step.getException() != null) { // the step failed (its claims expire and are taken again)
                run.threw(step.getException());
            }
            run.close();
        }
    }
}
