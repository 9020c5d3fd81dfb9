package dev.toolgate.lifecycle;

import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import dev.toolgate.targets.Lookup;

/**
 * Where one drive of the {@link OperationLoop} left an operation: the row, the answer of its first look-up
 * (null when it looked nothing up), and whether the last attempt's outcome was recorded by this drive
 * (false: another holder owns it, or nothing was sent — the answer is then a replay of the row).
 */
public record Driven(OperationView operation, Lookup lookup, boolean byThisCall) {

    /** A short name for counting a look-up's outcomes: found, sent, waiting, awaiting_caller, exhausted, failed, pending, unavailable, ambiguous, escalated. */
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
