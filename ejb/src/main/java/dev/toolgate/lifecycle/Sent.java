package dev.toolgate.lifecycle;

import dev.toolgate.journal.OperationView;

/** The operation after one attempt; {@code byThisCall} is false when another attempt owns the outcome. */
public record Sent(OperationView operation, boolean byThisCall) {
}
