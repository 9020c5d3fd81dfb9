package dev.toolgate.operation;

import jakarta.json.JsonObject;

import java.time.Instant;
import java.util.List;

/**
 * An immutable snapshot of one journal row. {@code leaseEpoch} names the lease it was taken under: a write on its
 * strength is refused once another lease was given out. {@code spanId}: the capturing call's span, which later traces link to.
 */
public record OperationView(String tenant, String key, String agentId, String operation, String target, OperationStatus status,
                            String requestHash, JsonObject payload, List<String> withheldFields,
                            String targetObjectId, JsonObject result,
                            String errorCode, int attemptCount, Instant leaseUntil, long leaseEpoch, Instant nextCheckAt,
                            int reconcileCount, Instant settleAfter, Instant escalatedAt,
                            Instant createdAt, Instant updatedAt, Instant completedAt,
                            String traceId, String spanId, boolean approvalRequired, String approvalId) {

    public boolean escalated() {
        return status == OperationStatus.UNKNOWN && escalatedAt != null;
    }
}
