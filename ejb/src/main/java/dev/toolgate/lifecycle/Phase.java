package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.CaptureDecision;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.trace.Step;

/**
 * Where one step of the {@link OperationLoop} (capture, attempt or look-up) left an operation.
 *
 * @param decision   the capture table's verb: the capture's own, {@code Execute} for an attempt, {@code Reconcile} for a look-up
 * @param before     the row's status when the step began; null for a new key
 * @param byThisCall the row is now this drive's doing; false: someone else's or earlier work, answered as a replay
 * @param lookup     the target's answer to the look-up (in the loop's answer, the drive's first); null when none
 */
public record Phase(CaptureDecision decision, OperationStatus before, OperationView operation, boolean byThisCall, Lookup lookup) {

    static Phase captured(CaptureDecision decision, OperationStatus before, OperationView operation) {
        boolean wrote = before == null || decision instanceof CaptureDecision.Execute || decision instanceof CaptureDecision.Reconcile
                || decision instanceof CaptureDecision.ApprovalLapsed;
        return new Phase(decision, before, operation, wrote, null);
    }

    static Phase attempted(OperationView attempt, OperationView after, boolean applied) {
        return new Phase(new CaptureDecision.Execute(), attempt.status(), after, applied, null);
    }

    /** A look-up's record on the row; {@code retryNow}: it found no effect and leased this drive the next attempt. */
    static Phase lookedUp(OperationView leased, OperationView after, boolean retryNow, Lookup lookup) {
        return new Phase(new CaptureDecision.Reconcile(), leased.status(), after, retryNow, lookup);
    }

    /** This phase as the answer of a drive that began with the look-up {@code first}. */
    public Phase withLookup(Lookup first) {
        return new Phase(decision, before, operation, byThisCall, first);
    }

    public Step described(Step step) {
        return step.after(before == null ? null : before.dbName(), operation.status().dbName(), operation.targetObjectId());
    }

    /** A short name for counting what a drive that began with a look-up did. */
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
