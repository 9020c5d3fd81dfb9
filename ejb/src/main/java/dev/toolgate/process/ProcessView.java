package dev.toolgate.process;

import jakarta.json.JsonObject;

import java.time.Instant;

/**
 * One process row as read. {@code waitingOn} is the key of the stage it waits on (null once settled);
 * {@code claimEpoch} names the advancer's claim under which this snapshot was taken; {@code traceId} is the trace of
 * the call that registered it and {@code spanId} (tracing on) that call's {@code toolgate.process} span, which the
 * reconcile job's advances continue; {@code declaration} is the process type's declaration as it was when the
 * process started, which it runs by to the end.
 */
public record ProcessView(String tenant, String key, String type, ProcessStatus status, String agentId, String requestHash,
                          JsonObject payload, String waitingOn, String detail, Instant nextCheckAt, long claimEpoch,
                          Instant createdAt, Instant updatedAt, Instant completedAt, String traceId, String spanId,
                          JsonObject declaration) {

    /** Finished for good: completed, failed or compensated. Its steps' records may be purged from here on. */
    public boolean finished() {
        return status.finished();
    }
}
