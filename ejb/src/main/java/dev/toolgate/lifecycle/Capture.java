package dev.toolgate.lifecycle;

import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;

/**
 * The capture phase's answer: what the caller may do, the row as the decision left it, and the status it
 * had before ({@code null}: the key was new), so a trace can show the transition.
 */
public record Capture(CaptureDecision decision, OperationView operation, OperationStatus before) {
}
