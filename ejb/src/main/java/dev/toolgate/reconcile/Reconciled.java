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
        if (lookup instanceof Lookup.Absent) {
            if (sent) {
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
