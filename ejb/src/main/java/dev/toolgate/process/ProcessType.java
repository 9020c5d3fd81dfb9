package dev.toolgate.process;

import dev.toolgate.canonical.OperationSpec;
import jakarta.json.JsonObject;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A declared process: its input (validated and fingerprinted like an operation's payload) and its steps,
 * run in order. {@link ProcessDeclarations} has refused every declaration that could not run. {@code declaration}
 * is the declaration as read: a process records it when it starts and runs by it to the end, so a changed or
 * removed declaration never changes, renames or re-sends the steps of a process already running.
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

    /** The key of a step's operation: the process key and the step's name, so every advancer derives the same one. */
    public static String stepKey(String processKey, String step) {
        return processKey + "/" + step;
    }

    /** The key of a step's compensation: a separate operation, so never the step's own key. */
    public static String compensationKey(String processKey, String step) {
        return processKey + "/" + step + "/compensation";
    }

    /** The keys of every operation a process of this type may send: each step's, then its compensation's if it has one. */
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
