package dev.toolgate.process;

import dev.toolgate.operation.OperationView;

import java.util.List;

public record ProcessRecord(ProcessView process, List<StepRecord> steps, List<ProcessEventView> events) {

    /** One declared step with its operation (null: never submitted), and its compensation as declared and as run. */
    public record StepRecord(StepDeclaration step, String key, OperationView operation, String compensationKey,
                             OperationView compensation) {
    }
}
