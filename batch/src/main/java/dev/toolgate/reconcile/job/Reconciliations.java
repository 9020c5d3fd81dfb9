package dev.toolgate.reconcile.job;

import jakarta.batch.runtime.StepExecution;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Reconcile runs for the API: start one now, read one's status and outcome counts. */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Reconciliations {

    @Inject
    JobSchedule schedule;

    public long start() {
        return schedule.start(JobSchedule.RECONCILE);
    }

    /**
     * A run as {@code tenant}'s people see it: its status, and the counts of their own operations and processes
     * only. A run works every tenant's; which other tenants' answers it found is not theirs to know.
     */
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

    /** One run: its batch status and how many of one tenant's operations ended each way (found, sent, waiting, …). */
    public record Run(long executionId, String status, Instant startedAt, Instant endedAt, Map<String, Integer> counts) {
    }
}
