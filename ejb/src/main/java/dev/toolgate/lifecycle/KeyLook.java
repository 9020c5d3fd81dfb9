package dev.toolgate.lifecycle;

import dev.toolgate.operation.OperationView;

/**
 * What the first look at a key found ({@link FirstCapture}): a new key captured, the row as it stood, or a race (another
 * caller's insert committed after the capture's statement began, so it saw no row and could insert none).
 */
public sealed interface KeyLook {

    record Captured(Phase phase) implements KeyLook {
    }

    /** The row as it stood, read with no lock: a finished one answers a replay; any other is decided again under its lock. */
    record Found(OperationView row) implements KeyLook {
    }

    record Raced() implements KeyLook {
    }
}
