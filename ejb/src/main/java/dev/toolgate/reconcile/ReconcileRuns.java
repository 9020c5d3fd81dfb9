package dev.toolgate.reconcile;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Reconcile runs for the API and the console: start one now, read one's status and outcome counts. The batch module
 * runs them and implements this as its {@code reconcile.job.Reconciliations}; the doors see only this, so the WAR is
 * compiled against no class of the batch module. An interface for that boundary alone: it has one implementation.
 */
public interface ReconcileRuns {

    /** Starts a run now, or joins the one still going on this instance; its execution id. */
    long start();

    /**
     * A run as {@code tenant}'s people see it: its status, and the counts of their own operations and processes
     * only. A run works every tenant's; which other tenants' answers it found is not theirs to know.
     */
    Optional<Run> find(long executionId, String tenant);

    /** One run: its batch status and how many of one tenant's operations ended each way (found, sent, waiting, …). */
    record Run(long executionId, String status, Instant startedAt, Instant endedAt, Map<String, Integer> counts) {
    }
}
