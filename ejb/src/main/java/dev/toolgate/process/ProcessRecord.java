package dev.toolgate.process;

import dev.toolgate.operation.OperationView;

import java.util.List;

/**
 * A process with its whole story: its row, each declared step with its operation and its compensation's
 * operation as the journal records them (null: not submitted), and its events, oldest first.
 */
public record ProcessRecord(ProcessView process, List<StepRecord> steps, List<ProcessEventView> events) {

    /** One declared step: its key, its operation (null: never submitted), its compensation as declared and as run. */
    public record StepRecord(StepDeclaration step, String key, OperationView operation, String compensationKey,
                             OperationView compensation) {
    }
}
