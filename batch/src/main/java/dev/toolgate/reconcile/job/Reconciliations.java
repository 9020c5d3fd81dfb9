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

    public Optional<Run> find(long executionId) {
        return schedule.execution(JobSchedule.RECONCILE, executionId).map(execution -> {
            TreeMap<String, Integer> counts = new TreeMap<>();
            for (StepExecution step : schedule.steps(executionId)) {
                ReconcileCounts.of(step.getPersistentUserData()).forEach((k, v) -> counts.merge(k, v, Integer::sum));
            }
            return new Run(executionId, execution.getBatchStatus().name(), instant(execution.getStartTime()),
                    instant(execution.getEndTime()), counts);
        });
    }

    private static Instant instant(Date date) {
        return date == null ? null : date.toInstant();
    }

    /** One run: its batch status and how many operations ended each way (found, sent, waiting, …). */
    public record Run(long executionId, String status, Instant startedAt, Instant endedAt, Map<String, Integer> counts) {
    }
}
