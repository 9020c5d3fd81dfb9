package dev.toolgate.process;

import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;

import java.time.Instant;

/**
 * What the process needs to know of one step's operation, as the journal records it: its status, whether a
 * person approved it, when it may be tried again, whether it is escalated, and its error.
 */
public record StepState(OperationStatus status, boolean approved, Instant nextCheckAt, boolean escalated, String errorCode) {

    public static StepState of(OperationView operation) {
        return operation == null ? null : new StepState(operation.status(), operation.approvalId() != null,
                operation.nextCheckAt(), operation.escalated(), operation.errorCode());
    }
}
