package dev.toolgate.lifecycle;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.trace.Step;

/**
 * Where one step of the {@link OperationLoop} left an operation: the one result that the capture, an attempt and a
 * look-up each hand back to the loop, and the loop to its caller.
 *
 * @param decision   the capture table's verb for what the step did with the row: the capture's own decision, {@code Execute}
 *                   for an attempt, {@code Reconcile} for a look-up. The loop goes on from a capture's; its caller answers a
 *                   reused key or an uncheckable fingerprint from it
 * @param before     the row's status when the step began; null when the step captured a new key
 * @param operation  the row as the step left it
 * @param byThisCall the row is now this drive's doing: an outcome its attempt recorded, a lease or a lapse its capture wrote,
 *                   the next attempt a look-up leased to it. False: someone else's or earlier work (a finished row, another
 *                   holder's outcome, an effect a look-up found), which its caller answers as a replay
 * @param lookup     the target's answer to the step's look-up, or, in the loop's answer, to the drive's first look-up;
 *                   null when there was none
 */
public record Phase(CaptureDecision decision, OperationStatus before, OperationView operation, boolean byThisCall, Lookup lookup) {

    /** A capture's decision and the row it left; whatever the capture wrote (a new key, a lease, a lapse) is this call's. */
    static Phase captured(CaptureDecision decision, OperationStatus before, OperationView operation) {
        boolean wrote = before == null || decision instanceof CaptureDecision.Execute || decision instanceof CaptureDecision.Reconcile
                || decision instanceof CaptureDecision.ApprovalLapsed;
        return new Phase(decision, before, operation, wrote, null);
    }

    /** An attempt's outcome on the row; {@code applied} is false when the fence kept it out (another holder owns the row). */
    static Phase attempted(OperationView attempt, OperationView after, boolean applied) {
        return new Phase(new CaptureDecision.Execute(), attempt.status(), after, applied, null);
    }

    /** A look-up's record on the row; {@code retryNow}: it found no effect and leased this drive the next attempt. */
    static Phase lookedUp(OperationView leased, OperationView after, boolean retryNow, Lookup lookup) {
        return new Phase(new CaptureDecision.Reconcile(), leased.status(), after, retryNow, lookup);
    }

    /** The same step, with the look-up the whole drive is counted by. */
    Phase withLookup(Lookup first) {
        return new Phase(decision, before, operation, byThisCall, first);
    }

    /** The same row, no longer this drive's own: decided again after a back-off, it answers as a replay until an attempt records. */
    Phase notByThisCall() {
        return new Phase(decision, before, operation, false, lookup);
    }

    /** The step's span, told the status it found, the status it left and the target's object. */
    Step described(Step step) {
        return step.after(before == null ? null : before.dbName(), operation.status().dbName(), operation.targetObjectId());
    }

    /**
     * A short name for counting what a drive that began with a look-up did: found, sent, waiting, awaiting_caller,
     * exhausted, failed, pending, unavailable, ambiguous, escalated.
     */
    public String outcome() {
        if (operation.escalatedAt() != null) {
            return "escalated";
        }
        if (lookup instanceof Lookup.Absent) {
            if (byThisCall) {
                return "sent";
            }
            if (operation.status().isTerminal()) {
                return "exhausted";
            }
            return operation.status() == OperationStatus.FAILED_RETRYABLE ? "awaiting_caller" : "waiting";
        }
        return lookup.metricName(); // found, failed, pending, unavailable, ambiguous: the look-up's own name
    }
}
