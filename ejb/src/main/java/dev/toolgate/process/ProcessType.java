package dev.toolgate.process;

import dev.toolgate.canonical.OperationSpec;
import jakarta.json.JsonObject;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A declared process: its input and its steps, run in order. A process records {@code declaration} when it starts
 * and runs by it to the end, so a changed declaration never renames or re-sends a running process's steps.
 */
public record ProcessType(String name, String description, OperationSpec input, List<StepDeclaration> steps, JsonObject declaration) {

    public ProcessType {
        steps = List.copyOf(steps);
    }

    /** A type built in code, with no declaration to record (tests of the decision table). */
    public ProcessType(String name, String description, OperationSpec input, List<StepDeclaration> steps) {
        this(name, description, input, steps, null);
    }

    public Optional<StepDeclaration> step(String name) {
        return steps.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The process key and the step's name, so every advancer derives the same key. */
    public static String stepKey(String processKey, String step) {
        return processKey + "/" + step;
    }

    /** The key of a step's compensation: a separate operation, so never the step's own key. */
    public static String compensationKey(String processKey, String step) {
        return processKey + "/" + step + "/compensation";
    }

    public List<String> stageKeys(String processKey) {
        Set<String> keys = new LinkedHashSet<>();
        for (StepDeclaration step : steps) {
            keys.add(stepKey(processKey, step.name()));
            if (step.compensation() instanceof Compensation.Undo) {
                keys.add(compensationKey(processKey, step.name()));
            }
        }
        return List.copyOf(keys);
    }
}
