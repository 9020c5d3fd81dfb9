package dev.toolgate.reconcile.job;

import dev.toolgate.reconcile.ReconcileRuns;
import jakarta.batch.runtime.StepExecution;
import jakarta.ejb.Local;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import java.util.TreeMap;

/** Reconcile runs for the API and the console: start one now, read one's status and outcome counts. */
@Stateless
@Local(ReconcileRuns.class)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Reconciliations implements ReconcileRuns {

    @Inject
    JobSchedule schedule;

    @Override
    public long start() {
        return schedule.start(JobSchedule.RECONCILE);
    }

    @Override
    public Optional<Run> find(long executionId, String tenant) {
        return schedule.execution(JobSchedule.RECONCILE, executionId).map(execution -> {
            TreeMap<String, Integer> counts = new TreeMap<>();
            for (StepExecution step : schedule.steps(executionId)) {
                ReconcileCounts.addTenant(step.getPersistentUserData(), tenant, counts);
            }
            if (execution.getEndTime() != null) {
                counts.putIfAbsent("processes_checked", 0); // kept only for tenants whose processes it moved
            }
            return new Run(executionId, execution.getBatchStatus().name(), instant(execution.getStartTime()),
                    instant(execution.getEndTime()), counts);
        });
    }

    private static Instant instant(Date date) {
        return date == null ? null : date.toInstant();
    }
}
