package dev.toolgate.process;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.canonical.FieldSpec;
import dev.toolgate.canonical.FieldType;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.canonical.OperationCatalog;
import dev.toolgate.canonical.OperationSpec;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a declared process's payload templates hang together: fields its operation has, every required field, only
 * declared input and earlier steps (never a ring), stored result fields; each refusal names process, step and field.
 */
final class StepReferences {

    private static final Map<FieldType, JsonValue> INPUT_SAMPLES = Map.of(
            FieldType.TEXT, JSON.createValue("x"), FieldType.MINOR_AMOUNT, JSON.createValue(100),
            FieldType.CURRENCY, JSON.createValue("RUB"), FieldType.TIMESTAMP, JSON.createValue("2026-01-01T00:00:00Z"),
            FieldType.FLAG, JsonValue.TRUE);

    private StepReferences() {
    }

    static void refuseBroken(String where, ProcessType type) {
        List<StepDeclaration> steps = type.steps();
        refuseCycles(where, steps);
        for (int i = 0; i < steps.size(); i++) {
            StepDeclaration step = steps.get(i);
            String at = where + ": step '" + step.name() + "'";
            check(at, type, step.payload(), step.operation(), i, false);
            if (step.compensation() instanceof Compensation.Undo undo) {
                check(at + "'s compensation", type, undo.payload(), undo.operation(), i, true);
            }
        }
        tryWithSamples(type);
    }

    /** A ring is named as a cycle, before the plainer "runs later" is said. */
    private static void refuseCycles(String where, List<StepDeclaration> steps) {
        Map<String, Set<String>> refers = new HashMap<>();
        for (StepDeclaration step : steps) {
            Set<String> targets = new LinkedHashSet<>();
            step.payload().references().stream().filter(u -> !u.reference().toInput()).forEach(u -> targets.add(u.reference().step()));
            targets.remove(step.name());
            refers.put(step.name(), targets);
        }
        for (StepDeclaration step : steps) {
            List<String> path = new ArrayList<>(List.of(step.name()));
            if (ring(step.name(), step.name(), refers, path, new LinkedHashSet<>())) {
                throw new InvalidDeclaration(where + ": the steps refer to each other in a cycle (" + String.join(" → ", path)
                        + "): a step can use only what earlier steps produced");
            }
        }
    }

    private static boolean ring(String start, String at, Map<String, Set<String>> refers, List<String> path, Set<String> seen) {
        for (String next : refers.getOrDefault(at, Set.of())) {
            path.add(next);
            if (next.equals(start) || (seen.add(next) && ring(start, next, refers, path, seen))) {
                return true;
            }
            path.remove(path.size() - 1);
        }
        return false;
    }

    /** {@code self}: the template may refer to step {@code index}. */
    private static void check(String at, ProcessType type, StepTemplate template, String operation, int index, boolean self) {
        OperationSpec spec = OperationCatalog.find(operation).orElseThrow();
        Map<String, FieldSpec> fields = new LinkedHashMap<>();
        spec.fields().forEach(f -> fields.put(f.name(), f));
        for (String field : template.fields()) {
            FieldSpec declared = fields.get(field);
            if (declared == null) {
                throw new InvalidDeclaration(at + ": sets '" + field + "', which is not a field of " + operation
                        + " (accepted: " + new TreeSet<>(fields.keySet()) + ")");
            }
            if (declared.sensitive()) {
                throw new InvalidDeclaration(at + ": sets '" + field + "', personal data, which is never stored, and a process's"
                        + " steps are built from what is stored");
            }
        }
        for (FieldSpec field : spec.fields()) {
            if (field.required() && !template.fields().contains(field.name())) {
                throw new InvalidDeclaration(at + ": does not set '" + field.name() + "', which " + operation + " requires");
            }
        }
        for (StepTemplate.Use use : template.references()) {
            StepTemplate.Reference reference = use.reference();
            String field = at + ": '" + use.field() + "' refers to " + reference;
            if (reference.toInput()) {
                FieldSpec input = type.input().fields().stream().filter(f -> f.name().equals(reference.field())).findFirst()
                        .orElseThrow(() -> new InvalidDeclaration(field + ", which the process's input does not declare"));
                if (!use.whole() && !input.required()) {
                    throw new InvalidDeclaration(field + " inside text, but the input field is optional: use an optional field"
                            + " as a whole value, which leaves the field out when it is absent");
                }
                continue;
            }
            int referred = indexOf(type, reference.step());
            if (referred < 0) {
                throw new InvalidDeclaration(field + ", but the process declares no step '" + reference.step() + "'");
            }
            if (referred > index || (referred == index && !self)) {
                throw new InvalidDeclaration(field + ", " + (referred == index ? "itself" : "a step that runs later")
                        + ": a step can use only what earlier steps produced");
            }
            String referredOperation = type.steps().get(referred).operation();
            if (reference.field() != null && !StepResults.fields(referredOperation).contains(reference.field())) {
                throw new InvalidDeclaration(field + ", but the result of " + referredOperation + " holds "
                        + new TreeSet<>(StepResults.fields(referredOperation)));
            }
        }
    }

    private static int indexOf(ProcessType type, String step) {
        for (int i = 0; i < type.steps().size(); i++) {
            if (type.steps().get(i).name().equals(step)) {
                return i;
            }
        }
        return -1;
    }

    /** Every payload built from values of the declared shapes: a type mismatch fails here, not at an agent's call. */
    private static void tryWithSamples(ProcessType type) {
        JsonObject input = sampleInput(type.input());
        try {
            StepPayloads.checkAll(type, input);
        } catch (InvalidCommand e) {
            throw new InvalidDeclaration("process '" + type.name() + "': " + e.getMessage());
        }
    }

    private static JsonObject sampleInput(OperationSpec input) {
        var sample = JSON.createObjectBuilder();
        input.fields().forEach(f -> sample.add(f.name(), INPUT_SAMPLES.get(f.type())));
        return sample.build();
    }
}
