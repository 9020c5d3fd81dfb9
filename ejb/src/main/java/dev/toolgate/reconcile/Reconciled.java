package dev.toolgate.reconcile;

import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import dev.toolgate.targets.Lookup;

/** What reconciling one operation did: the look-up's answer, and whether an attempt was sent after it. */
public record Reconciled(OperationView operation, Lookup lookup, boolean sent) {

    /** A short name for counting outcomes: found, sent, waiting, awaiting_caller, exhausted, failed, pending, unavailable, ambiguous, escalated. */
    public String outcome() {
        if (operation.escalatedAt() != null) {
            return "escalated";
        }
        if (lookup instanceof Lookup.Found) {
            return "found";
        }
        if (lookup instanceof Lookup.Absent) {
            if (sent) {
                return "sent";
            }
            if (operation.status().isTerminal()) {
                return "exhausted";
            }
            return operation.status() == OperationStatus.FAILED_RETRYABLE ? "awaiting_caller" : "waiting";
        }
        if (lookup instanceof Lookup.Failed) {
            return "failed";
        }
        if (lookup instanceof Lookup.Pending) {
            return "pending";
        }
        if (lookup instanceof Lookup.Unavailable) {
            return "unavailable";
        }
        if (lookup instanceof Lookup.Ambiguous) { // a duplicate whose escalation was fenced off: another holder has it
            return "ambiguous";
        }
        throw new IllegalArgumentException("a look-up this count does not know: " + lookup);
    }
}
