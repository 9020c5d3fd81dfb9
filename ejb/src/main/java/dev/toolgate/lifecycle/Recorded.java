package dev.toolgate.lifecycle;

import dev.toolgate.journal.OperationView;

/** The row after an outcome was offered; {@code applied} is false when the fence refused it. */
public record Recorded(OperationView operation, boolean applied) {
}
