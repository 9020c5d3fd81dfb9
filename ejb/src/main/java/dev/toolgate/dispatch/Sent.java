package dev.toolgate.dispatch;

import dev.toolgate.journal.OperationView;

/** The operation after dispatch; {@code byThisCall} is false when another attempt owns the outcome. */
public record Sent(OperationView operation, boolean byThisCall) {
}
