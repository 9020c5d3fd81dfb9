package dev.toolgate.lifecycle;

import dev.toolgate.operation.OperationView;

/**
 * What the first statement of a call with a key found ({@link FirstCapture}): the key was new and this call captured
 * it; the key's row as it stood; or neither — another caller's insert won meanwhile, committed after the statement
 * began, so it saw no row and could insert none.
 */
public sealed interface KeyLook {

    /** This call's row and its {@code captured} event are committed: the capture's decision. */
    record Captured(Phase phase) implements KeyLook {
    }

    /** The row as it stood, read with no lock: a finished one answers a replay; any other is decided again under its lock. */
    record Found(OperationView row) implements KeyLook {
    }

    /** Another caller's row, not yet visible: decided under its lock. */
    record Raced() implements KeyLook {
    }
}
