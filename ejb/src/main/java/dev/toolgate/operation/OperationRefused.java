package dev.toolgate.operation;

import jakarta.ejb.ApplicationException;

/** A request about an existing operation the journal refuses, nothing changed; rolls its transaction back. */
@ApplicationException(rollback = true)
public class OperationRefused extends RuntimeException {

    public enum Reason {
        OPERATION_NOT_FOUND,
        PROCESS_NOT_FOUND,
        PROCESS_NOT_NEEDING_ATTENTION,
        PROCESS_IN_PROGRESS,
        APPROVAL_NOT_FOUND,
        APPROVAL_NOT_REQUIRED,
        NOT_AWAITING_APPROVAL,
        FINGERPRINT_MISMATCH,
        OWN_OPERATION,
        NOT_ESCALATED,
        RESUME_NEEDS_CALLER
    }

    private final Reason reason;

    public OperationRefused(Reason reason, String detail) {
        super(detail, null, false, false); // an answer to the caller, not a bug: no stack trace
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
