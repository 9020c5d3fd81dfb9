package dev.toolgate.process;

import jakarta.json.JsonObject;

import java.time.Instant;

/**
 * One process row as read. {@code waitingOn} is the key of the stage it waits on (null once settled);
 * {@code claimEpoch} names the advancer's claim under which this snapshot was taken.
 */
public record ProcessView(String tenant, String key, String type, ProcessStatus status, String agentId, String requestHash,
                          JsonObject payload, String waitingOn, String detail, Instant nextCheckAt, long claimEpoch,
                          Instant createdAt, Instant updatedAt, Instant completedAt, String traceId) {

    /** Nothing changes by itself any more: completed, failed, compensated, or a person's to settle. */
    public boolean settled() {
        return nextCheckAt == null && status != ProcessStatus.RUNNING;
    }
}
