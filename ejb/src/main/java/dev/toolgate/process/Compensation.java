package dev.toolgate.process;

/**
 * What undoes a step's effect after a later step failed for good: a new operation with its own key (a refund, a
 * cancelled invoice), never a deletion.
 */
public sealed interface Compensation {

    /** A new operation, built like a step's payload; it may refer to the step it compensates. */
    record Undo(String operation, String target, StepTemplate payload) implements Compensation {
    }

    /** Nothing is left to undo once the earlier steps are compensated, and the declaration says why. */
    record NothingToUndo(String reason) implements Compensation {
    }

    /** The effect cannot be undone: the process says so, and a person takes it from there. */
    record Irreversible(String reason) implements Compensation {
    }
}
