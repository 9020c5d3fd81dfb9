package dev.toolgate.process;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;

import java.time.Instant;

public record StepState(OperationStatus status, ApprovalStanding approval, Instant nextCheckAt, boolean escalated, String errorCode,
                        Instant leaseUntil) {

    public StepState(OperationStatus status, ApprovalStanding approval, Instant nextCheckAt, boolean escalated, String errorCode) {
        this(status, approval, nextCheckAt, escalated, errorCode, null);
    }

    /** An approval id on the row is evidence one was granted, not that it stands: it may have expired or been revoked since. */
    public static StepState of(OperationView operation, ApprovalView approval, Instant now) {
        return operation == null ? null : new StepState(operation.status(), ApprovalStanding.of(operation, approval, now),
                operation.nextCheckAt(), operation.escalated(), operation.errorCode(), operation.leaseUntil());
    }

    boolean leaseFree(Instant now) {
        return leaseUntil == null || !leaseUntil.isAfter(now);
    }
}
