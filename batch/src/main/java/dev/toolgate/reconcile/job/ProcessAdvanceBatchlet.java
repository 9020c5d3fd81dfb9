package dev.toolgate.reconcile.job;

import dev.toolgate.process.ProcessDriver;
import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * The reconcile run's second step: with the run's look-ups recorded, moves on every process whose next check is due,
 * with no agent. Batches of {@link #BATCH}, until none is due or the run is stopped.
 */
@Named
@Dependent
public class ProcessAdvanceBatchlet extends AbstractBatchlet {

    private static final Logger LOG = Logger.getLogger(ProcessAdvanceBatchlet.class.getName());
    static final int BATCH = 50;
    /** A bound per run: a process that comes due again at once waits for the next run rather than holding this one. */
    private static final int MAX_ROUNDS = 20;

    @Inject
    ProcessDriver processes;
    @Inject
    StepContext step;

    private volatile boolean stopped;

    @Override
    public String process() {
        TreeMap<String, TreeMap<String, Integer>> counts = new TreeMap<>();
        long advanced = 0;
        int round = 0;
        int batch;
        do {
            Map<String, Integer> byTenant = processes.advanceDue(BATCH);
            byTenant.forEach((tenant, count) -> ReconcileCounts.add(counts, tenant, "processes_checked", count));
            batch = byTenant.values().stream().mapToInt(Integer::intValue).sum();
            advanced += batch;
        } while (batch > 0 && !stopped && ++round < MAX_ROUNDS);
        long total = advanced;
        step.setPersistentUserData(counts); // the run's counts per tenant, beside the look-ups' (Reconciliations.find)
        if (total > 0) {
            LOG.info(() -> "looked at " + total + " due processes");
        }
        return "ADVANCED_" + total;
    }

    @Override
    public void stop() {
        stopped = true;
    }
}
