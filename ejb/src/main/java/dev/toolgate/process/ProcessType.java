package dev.toolgate.process;

import dev.toolgate.canonical.OperationSpec;

import java.util.List;
import java.util.Optional;

/**
 * A declared process: its input (validated and fingerprinted like an operation's payload) and its steps,
 * run in order. {@link ProcessDeclarations} has refused every declaration that could not run.
 */
public record ProcessType(String name, String description, OperationSpec input, List<StepDeclaration> steps) {

    public ProcessType {
        steps = List.copyOf(steps);
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
}
