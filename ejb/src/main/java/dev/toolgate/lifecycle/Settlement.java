package dev.toolgate.lifecycle;

import dev.toolgate.journal.OperationView;

/**
 * The reconcile phase's answer. {@code retryNow} means the look-up found nothing, the row moved to
 * a new started attempt under this caller's lease, and the caller must send that attempt now.
 */
public record Settlement(OperationView operation, boolean retryNow) {
}
