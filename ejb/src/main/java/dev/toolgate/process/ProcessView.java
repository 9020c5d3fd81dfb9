package dev.toolgate.process;

import jakarta.json.JsonObject;

import java.time.Instant;

/**
 * One process row as read. {@code claimEpoch}: the claim it was read under; {@code declaration}: the type as it was
 * when the process started, which it runs by to the end.
 */
public record ProcessView(String tenant, String key, String type, ProcessStatus status, String agentId, String requestHash,
                          JsonObject payload, String waitingOn, String detail, Instant nextCheckAt, long claimEpoch,
                          Instant createdAt, Instant updatedAt, Instant completedAt, String traceId, String spanId,
                          JsonObject declaration) {

    public boolean finished() {
        return status.finished();
    }
}
