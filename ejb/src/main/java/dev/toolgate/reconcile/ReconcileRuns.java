package dev.toolgate.reconcile;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Reconcile runs for the API and the console. Implemented by the batch module; an interface only so the WAR is
 * compiled against no class of it.
 */
public interface ReconcileRuns {

    /** Starts a run now, or joins the one still going on this instance; its execution id. */
    long start();

    /** Counts of {@code tenant}'s own operations only: which other tenants' answers a run found is not theirs to know. */
    Optional<Run> find(long executionId, String tenant);

    record Run(long executionId, String status, Instant startedAt, Instant endedAt, Map<String, Integer> counts) {
    }
}
