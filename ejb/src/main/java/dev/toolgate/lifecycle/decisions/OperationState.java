package dev.toolgate.lifecycle.decisions;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.approval.ApprovalStanding;
import java.time.Instant;

/** What the capture decision needs to know about an existing row. */
public record OperationState(OperationStatus status, String requestHash, Instant leaseUntil, Instant nextCheckAt,
                             boolean escalated, ApprovalStanding approval) {

    public static OperationState of(OperationView row, ApprovalStanding approval) {
        return new OperationState(row.status(), row.requestHash(), row.leaseUntil(), row.nextCheckAt(), row.escalatedAt() != null, approval);
    }

    boolean leaseActive(Instant now) {
        return leaseUntil != null && leaseUntil.isAfter(now);
    }

    boolean checkDue(Instant now) {
        return nextCheckAt == null || !nextCheckAt.isAfter(now);
    }
}
