package dev.toolgate.process;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.canonical.OperationCatalog;
import dev.toolgate.operation.OperationView;
import jakarta.json.JsonObject;

import java.util.Map;

/**
 * Builds a step's payload from the process's input and earlier steps' recorded results, and checks before the
 * process is stored that every payload it will send is valid: step 3's refusals are given to the agent at once.
 */
final class StepPayloads {

    private StepPayloads() {
    }

    static JsonObject build(StepTemplate template, JsonObject input, Map<String, OperationView> steps) {
        return template.build(reference -> {
            if (reference.toInput()) {
                return input.get(reference.field());
            }
            OperationView step = steps.get(reference.step());
            if (step == null) {
                return null;
            }
            if (reference.field() == null) {
                return step.targetObjectId() == null ? null : JSON.createValue(step.targetObjectId());
            }
            return step.result() == null ? null : step.result().get(reference.field());
        });
    }

    /** Every payload built from {@code input} and placeholder step results; the first invalid one throws {@link InvalidCommand}. */
    static void checkAll(ProcessType type, JsonObject input) {
        for (StepDeclaration step : type.steps()) {
            check(type, "step '" + step.name() + "'", step.operation(), step.payload(), input);
            if (step.compensation() instanceof Compensation.Undo undo) {
                check(type, "the compensation of step '" + step.name() + "'", undo.operation(), undo.payload(), input);
            }
        }
    }

    private static void check(ProcessType type, String what, String operation, StepTemplate template, JsonObject input) {
        JsonObject payload;
        try {
            payload = template.build(reference -> {
                if (reference.toInput()) {
                    return input.get(reference.field());
                }
                StepDeclaration referred = type.step(reference.step()).orElseThrow();
                return reference.field() == null ? StepResults.sampleObjectId(referred.target()) : StepResults.sample(reference.field());
            });
        } catch (StepTemplate.MissingValue e) {
            throw new InvalidCommand(InvalidCommand.Reason.INVALID_PAYLOAD, what + " needs " + e.reference() + ", which is absent");
        }
        try {
            ProcessDeclarations.canonical(OperationCatalog.find(operation).orElseThrow(), payload);
        } catch (InvalidCommand e) {
            throw new InvalidCommand(InvalidCommand.Reason.INVALID_PAYLOAD, e.field(),
                    what + " (" + operation + ") would be invalid: " + e.getMessage());
        }
    }
}
