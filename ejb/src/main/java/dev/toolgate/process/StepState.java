package dev.toolgate.process;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;

import java.time.Instant;

/**
 * What the process needs to know of one step's operation, as the journal records it: its status, where it stands
 * with its approval now, when it may be tried again or looked up, whether it is escalated, its error, and its lease.
 */
public record StepState(OperationStatus status, ApprovalStanding approval, Instant nextCheckAt, boolean escalated, String errorCode,
                        Instant leaseUntil) {

    public StepState(OperationStatus status, ApprovalStanding approval, Instant nextCheckAt, boolean escalated, String errorCode) {
        this(status, approval, nextCheckAt, escalated, errorCode, null);
    }

    /**
     * The step's state at {@code now}; {@code approval} is the one the operation names (null: none, or not read). An
     * approval id on the row is evidence that one was granted, not that it stands: it may have expired or been revoked
     * since ({@link ApprovalStanding#of}, as the gateway judges it before every attempt).
     */
    public static StepState of(OperationView operation, ApprovalView approval, Instant now) {
        return operation == null ? null : new StepState(operation.status(), ApprovalStanding.of(operation, approval, now),
                operation.nextCheckAt(), operation.escalated(), operation.errorCode(), operation.leaseUntil());
    }

    /** Nobody holds the step's lease: an attempt or a look-up of it may be started (the gateway decides which). */
    boolean leaseFree(Instant now) {
        return leaseUntil == null || !leaseUntil.isAfter(now);
    }
}
