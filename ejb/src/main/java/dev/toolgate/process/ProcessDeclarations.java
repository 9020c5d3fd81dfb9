package dev.toolgate.process;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.canonical.Canonicalizer;
import dev.toolgate.canonical.FieldSpec;
import dev.toolgate.canonical.FieldType;
import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.canonical.OperationCatalog;
import dev.toolgate.canonical.OperationSpec;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads process type declarations (docs/processes.md) and refuses, with a message naming the process, the
 * step and the field, every one that could not run: an unknown operation, a field the operation does not
 * have, a required field left unset, a reference to an input the process does not declare, to a step that
 * does not exist or runs later (a cycle included), to a result field the operation never stores, and a
 * payload that would be invalid with values of the declared shapes. What passes here can only fail at run
 * time on the values an agent sends, and those are checked before anything is stored.
 */
public final class ProcessDeclarations {

    static final int MAX_STEPS = 16;
    private static final String RESERVED_STEP = "compensation";
    /** No {@code _}: the MCP tool {@code process_<name with . as _>} must name one type only; 56 keeps it within 64. */
    private static final Pattern PROCESS_NAME = Pattern.compile("[a-z][a-z0-9]*(\\.[a-z][a-z0-9]*)+");
    /**
     * A step's name (an input field's too): part of the step's key ({@link ProcessType#stepKey}), which the purges read
     * by this rule ({@code journal.Retention}).
     */
    static final Pattern STEP_NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");
    private static final Map<String, FieldType> INPUT_TYPES = Map.of(
            "text", FieldType.TEXT, "minor_amount", FieldType.MINOR_AMOUNT, "currency", FieldType.CURRENCY,
            "timestamp", FieldType.TIMESTAMP, "flag", FieldType.FLAG);
    private static final Map<FieldType, JsonValue> INPUT_SAMPLES = Map.of(
            FieldType.TEXT, JSON.createValue("x"), FieldType.MINOR_AMOUNT, JSON.createValue(100),
            FieldType.CURRENCY, JSON.createValue("RUB"), FieldType.TIMESTAMP, JSON.createValue("2026-01-01T00:00:00Z"),
            FieldType.FLAG, JsonValue.TRUE);

    private ProcessDeclarations() {
    }

    /** A document of declarations: one object, or an array of them. */
    public static List<ProcessType> parse(String document) {
        JsonValue parsed;
        try {
            parsed = IJsonReader.read(document);
        } catch (InvalidCommand e) {
            throw new InvalidDeclaration("the declarations are not JSON: " + e.getMessage());
        }
        List<ProcessType> types = new ArrayList<>();
        if (parsed instanceof JsonObject one) {
            types.add(declaration(one));
        } else if (parsed instanceof JsonArray many) {
            Set<String> names = new LinkedHashSet<>();
            for (JsonValue each : many) {
                if (!(each instanceof JsonObject object)) {
                    throw new InvalidDeclaration("each declaration is a JSON object");
                }
                ProcessType type = declaration(object);
                if (!names.add(type.name())) {
                    throw new InvalidDeclaration("process '" + type.name() + "' is declared twice");
                }
                types.add(type);
            }
        } else {
            throw new InvalidDeclaration("the declarations are a JSON object or an array of them");
        }
        return types;
    }

    /** Whether {@code name} may name a step: its pattern, and not the word reserved for compensations' keys. */
    static boolean isStepName(String name) {
        return STEP_NAME.matcher(name).matches() && !name.equals(RESERVED_STEP);
    }

    static ProcessType declaration(JsonObject declaration) {
        String name = text(declaration, "process", "a process declaration");
        if (!PROCESS_NAME.matcher(name).matches() || name.length() > 56) {
            throw new InvalidDeclaration("process '" + name + "': a name is dotted lower-case words of letters and digits,"
                    + " at most 56 characters, e.g. order.fulfil");
        }
        String where = "process '" + name + "'";
        known(declaration, where, Set.of("process", "description", "input", "steps"));
        OperationSpec input = input(name, declaration.get("input"));
        if (!(declaration.get("steps") instanceof JsonArray stepArray) || stepArray.isEmpty() || stepArray.size() > MAX_STEPS) {
            throw new InvalidDeclaration(where + ": 'steps' is an array of 1 to " + MAX_STEPS + " steps");
        }
        Map<String, JsonObject> raw = new LinkedHashMap<>();
        for (JsonValue value : stepArray) {
            if (!(value instanceof JsonObject step)) {
                throw new InvalidDeclaration(where + ": each step is a JSON object");
            }
            String stepName = text(step, "name", where + ": a step");
            if (!STEP_NAME.matcher(stepName).matches()) {
                throw new InvalidDeclaration(where + ": step '" + stepName + "': a step name is lower-case letters, digits and _, at most 32");
            }
            if (stepName.equals(RESERVED_STEP)) { // <key>/<step>/compensation must never be another process's step key
                throw new InvalidDeclaration(where + ": step '" + stepName + "': the name is reserved for compensations' keys");
            }
            if (raw.put(stepName, step) != null) {
                throw new InvalidDeclaration(where + ": step '" + stepName + "' is declared twice");
            }
        }
        List<StepDeclaration> steps = new ArrayList<>();
        for (Map.Entry<String, JsonObject> entry : raw.entrySet()) {
            steps.add(step(where, entry.getKey(), entry.getValue()));
        }
        refuseCycles(where, steps);
        ProcessType type = new ProcessType(name, declaration.getString("description", ""), input, steps, declaration);
        for (int i = 0; i < steps.size(); i++) {
            StepDeclaration step = steps.get(i);
            String at = where + ": step '" + step.name() + "'";
            check(at, type, step.payload(), step.operation(), i, false);
            if (step.compensation() instanceof Compensation.Undo undo) {
                check(at + "'s compensation", type, undo.payload(), undo.operation(), i, true);
            }
        }
        tryWithSamples(type);
        return type;
    }

    private static OperationSpec input(String process, JsonValue value) {
        if (!(value instanceof JsonObject fields) || fields.isEmpty()) {
            throw new InvalidDeclaration("process '" + process + "': 'input' is an object of the fields an agent sends");
        }
        List<FieldSpec> specs = new ArrayList<>();
        for (Map.Entry<String, JsonValue> field : fields.entrySet()) {
            String at = "process '" + process + "': input field '" + field.getKey() + "'";
            if (!STEP_NAME.matcher(field.getKey()).matches()) {
                throw new InvalidDeclaration(at + ": a field name is lower-case letters, digits and _, at most 32");
            }
            if (!(field.getValue() instanceof JsonObject spec)) {
                throw new InvalidDeclaration(at + ": declare it as {\"type\": …, \"required\"?: …, \"max_length\"?: …}");
            }
            known(spec, at, Set.of("type", "required", "max_length"));
            FieldType type = INPUT_TYPES.get(spec.getString("type", ""));
            if (type == null) {
                // no inn: personal data is never stored, and a process's steps are built from what is stored
                throw new InvalidDeclaration(at + ": 'type' is one of " + new TreeSet<>(INPUT_TYPES.keySet()));
            }
            int maxLength = spec.get("max_length") instanceof JsonNumber n ? n.intValue() : 128;
            if (maxLength < 1 || maxLength > 1000) {
                throw new InvalidDeclaration(at + ": 'max_length' is 1 to 1000");
            }
            specs.add(new FieldSpec(field.getKey(), type, spec.getBoolean("required", true), maxLength, false));
        }
        return new OperationSpec(process, "process", specs, false);
    }

    private static StepDeclaration step(String where, String name, JsonObject step) {
        String at = where + ": step '" + name + "'";
        known(step, at, Set.of("name", "operation", "target", "payload", "compensation"));
        OperationSpec spec = operation(at, text(step, "operation", at));
        if (step.containsKey("target") && !spec.target().equals(step.getString("target", ""))) {
            throw new InvalidDeclaration(at + ": " + spec.operation() + " is served by target '" + spec.target() + "'");
        }
        if (!(step.get("payload") instanceof JsonObject payload)) {
            throw new InvalidDeclaration(at + ": 'payload' is the JSON object the step sends");
        }
        return new StepDeclaration(name, spec.operation(), spec.target(), template(at, payload), compensation(at, step.get("compensation")));
    }

    private static Compensation compensation(String at, JsonValue value) {
        String say = at + ": say how it is compensated: {\"operation\": …, \"payload\": {…}}, {\"none\": \"why nothing needs undoing\"}"
                + " or {\"impossible\": \"why it cannot be undone\"}";
        if (!(value instanceof JsonObject compensation)) {
            throw new InvalidDeclaration(say);
        }
        if (compensation.keySet().equals(Set.of("none")) && compensation.get("none") instanceof JsonString why && !why.getString().isBlank()) {
            return new Compensation.NothingToUndo(why.getString());
        }
        if (compensation.keySet().equals(Set.of("impossible")) && compensation.get("impossible") instanceof JsonString why
                && !why.getString().isBlank()) {
            return new Compensation.Irreversible(why.getString());
        }
        if (compensation.keySet().equals(Set.of("operation", "payload")) && compensation.get("operation") instanceof JsonString op
                && compensation.get("payload") instanceof JsonObject payload) {
            OperationSpec spec = operation(at + "'s compensation", op.getString());
            return new Compensation.Undo(spec.operation(), spec.target(), template(at + "'s compensation", payload));
        }
        throw new InvalidDeclaration(say);
    }

    private static StepTemplate template(String at, JsonObject payload) {
        try {
            return StepTemplate.of(payload);
        } catch (InvalidDeclaration e) {
            throw new InvalidDeclaration(at + ": " + e.getMessage());
        }
    }

    private static OperationSpec operation(String at, String operation) {
        return OperationCatalog.find(operation).orElseThrow(() -> new InvalidDeclaration(at + ": unknown operation '" + operation
                + "' (the catalog has " + OperationCatalog.operations().stream().map(OperationSpec::operation).toList() + ")"));
    }

    /** Steps that refer to each other in a ring: named as a cycle, before the plainer "runs later" is said. */
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

    /** A payload template against its operation's fields and the process's steps; {@code self}: it may refer to step {@code index}. */
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

    private static void known(JsonObject object, String at, Set<String> fields) {
        for (String field : object.keySet()) {
            if (!fields.contains(field)) {
                throw new InvalidDeclaration(at + ": unknown field '" + field + "' (accepted: " + new TreeSet<>(fields) + ")");
            }
        }
    }

    private static String text(JsonObject object, String field, String at) {
        if (!(object.get(field) instanceof JsonString s) || s.getString().isBlank()) {
            throw new InvalidDeclaration(at + ": '" + field + "' must be a non-empty string");
        }
        return s.getString();
    }

    /** Package-visible for {@link StepPayloads}: the canonical form of a payload as the gateway would take it. */
    static JsonObject canonical(OperationSpec spec, JsonObject payload) {
        return Canonicalizer.canonicalPayload(spec, payload);
    }
}
