package dev.toolgate.lifecycle.decisions;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.canonical.FingerprintSchemes;
import dev.toolgate.operation.OperationStatus;
import java.time.Instant;

/** The capture decision as a pure function of (row, request, now): the whole state table on one screen. */
public final class CapturePolicy {

    private CapturePolicy() {
    }

    /** A finished operation with this payload never changes again: replayed as read, without the lock. */
    public static boolean replayedAsRead(OperationStatus status, String storedHash, String requestHash) {
        return status.isTerminal() && FingerprintSchemes.match(storedHash, requestHash) == FingerprintSchemes.Match.SAME;
    }

    public static CaptureDecision decide(OperationState row, String requestHash, Instant now) {
        switch (FingerprintSchemes.match(row.requestHash(), requestHash)) {
            case DIFFERENT -> {
                return new CaptureDecision.Mismatch();
            }
            case UNCHECKABLE -> {
                return new CaptureDecision.FingerprintUncheckable();
            }
            default -> {
                // the same intent: the row's state decides
            }
        }
        return switch (row.status()) {
            case SUCCEEDED, FAILED_FINAL -> new CaptureDecision.Replay();
            // an expired lease means the owner may have sent the request and died: never repeat blindly
            case STARTED -> row.leaseActive(now)
                    ? new CaptureDecision.InProgress(row.leaseUntil())
                    : new CaptureDecision.Reconcile();
            case UNKNOWN -> decideUnknown(row, now);
            case FAILED_RETRYABLE -> row.checkDue(now)
                    ? newAttempt(row)
                    : new CaptureDecision.RetryLater(row.nextCheckAt());
            case PENDING_APPROVAL -> row.approval() == ApprovalStanding.AWAITING
                    ? new CaptureDecision.AwaitingApproval()
                    : newAttempt(row);
        };
    }

    /** Every new attempt, the first included, needs the approval to stand now, not when it was granted. */
    private static CaptureDecision newAttempt(OperationState row) {
        return row.approval().permitsAttempt()
                ? new CaptureDecision.Execute()
                : new CaptureDecision.ApprovalLapsed(row.approval());
    }

    private static CaptureDecision decideUnknown(OperationState row, Instant now) {
        if (row.escalated()) {
            return new CaptureDecision.Escalated();
        }
        if (row.leaseActive(now)) { // someone is reconciling right now
            return new CaptureDecision.Unsettled(row.leaseUntil());
        }
        if (!row.checkDue(now)) { // the target said "pending" or was unreachable: don't hammer it
            return new CaptureDecision.Unsettled(row.nextCheckAt());
        }
        return new CaptureDecision.Reconcile();
    }
}
