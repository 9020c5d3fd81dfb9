package dev.toolgate.operation;

import jakarta.json.JsonObject;

import java.time.Instant;
import java.util.List;

/**
 * An immutable snapshot of one journal row: what leaves the journal, never the entity itself.
 * {@code leaseEpoch} names the lease this snapshot was taken under: a write made on its strength is
 * refused once another lease has been given out. {@code traceId} is the trace of the call that captured
 * it, {@code spanId} (tracing on) that call's span, which later traces link to.
 */
public record OperationView(String tenant, String key, String agentId, String operation, String target, OperationStatus status,
                            String requestHash, JsonObject payload, List<String> withheldFields,
                            String targetObjectId, JsonObject result,
                            String errorCode, int attemptCount, Instant leaseUntil, long leaseEpoch, Instant nextCheckAt,
                            int reconcileCount, Instant settleAfter, Instant escalatedAt,
                            Instant createdAt, Instant updatedAt, Instant completedAt,
                            String traceId, String spanId, boolean approvalRequired, String approvalId) {

    /** Escalated: reconciliation gave up or found a duplicate, and a person must settle it. */
    public boolean escalated() {
        return status == OperationStatus.UNKNOWN && escalatedAt != null;
    }
}
