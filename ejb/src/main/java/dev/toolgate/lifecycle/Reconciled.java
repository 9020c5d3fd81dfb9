package dev.toolgate.lifecycle;

import dev.toolgate.journal.OperationView;
import dev.toolgate.targets.Lookup;

/** What one look-up did: the row after its record, the target's answer, and whether the next attempt may go out now. */
public record Reconciled(OperationView operation, Lookup lookup, boolean retryNow) {
}
