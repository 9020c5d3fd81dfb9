package dev.toolgate.reconcile;

import dev.toolgate.journal.OperationView;
import dev.toolgate.target.Lookup;

/** What reconciling one operation did: the look-up's answer, and whether an attempt was sent after it. */
public record Reconciled(OperationView operation, Lookup lookup, boolean sent) {

    /** A short name for counting outcomes: found, sent, waiting, pending, unavailable, escalated, refused. */
    public String outcome() {
        if (operation.escalatedAt() != null) {
            return "escalated";
        }
        if (lookup instanceof Lookup.Found) {
            return "found";
        }
        if (lookup instanceof Lookup.Absent) {
            return sent ? "sent" : operation.status().isTerminal() ? "exhausted" : "waiting";
        }
        return lookup instanceof Lookup.Pending ? "pending" : "unavailable";
    }
}
