package dev.toolgate.process;

import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;

import java.time.Instant;

/**
 * What the process needs to know of one step's operation, as the journal records it: its status, whether a
 * person approved it, when it may be tried again or looked up, whether it is escalated, its error, and its lease.
 */
public record StepState(OperationStatus status, boolean approved, Instant nextCheckAt, boolean escalated, String errorCode,
                        Instant leaseUntil) {

    public StepState(OperationStatus status, boolean approved, Instant nextCheckAt, boolean escalated, String errorCode) {
        this(status, approved, nextCheckAt, escalated, errorCode, null);
    }

    public static StepState of(OperationView operation) {
        return operation == null ? null : new StepState(operation.status(), operation.approvalId() != null,
                operation.nextCheckAt(), operation.escalated(), operation.errorCode(), operation.leaseUntil());
    }

    /** Nobody holds the step's lease: an attempt or a look-up of it may be started (the gateway decides which). */
    boolean leaseFree(Instant now) {
        return leaseUntil == null || !leaseUntil.isAfter(now);
    }
}
