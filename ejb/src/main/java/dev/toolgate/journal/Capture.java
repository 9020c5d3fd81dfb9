package dev.toolgate.journal;

/** The capture phase's answer: what the caller may do, and the row as the decision left it. */
public record Capture(CaptureDecision decision, OperationView operation) {
}
