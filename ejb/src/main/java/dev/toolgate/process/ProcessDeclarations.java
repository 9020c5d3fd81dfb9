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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads process type declarations (docs/processes.md) and refuses, naming process, step and field, every one that
 * could not run (an unknown operation or field, an unset required field, a reference to something undeclared or
 * later, a payload invalid for the declared shapes). What passes can only fail on an agent's values, which are
 * checked before anything is stored. References between steps: {@link StepReferences}.
 */
public final class ProcessDeclarations {

    static final int MAX_STEPS = 16;
    private static final String RESERVED_STEP = "compensation";
    /** No {@code _}: the MCP tool {@code process_<name with . as _>} must name one type only; 56 keeps it within 64. */
    private static final Pattern PROCESS_NAME = Pattern.compile("[a-z][a-z0-9]*(\\.[a-z][a-z0-9]*)+");
    /** A step's (and input field's) name: part of the step's key, which the purges read by this rule ({@code journal.Retention}). */
    static final Pattern STEP_NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");
    private static final Map<String, FieldType> INPUT_TYPES = Map.of(
            "text", FieldType.TEXT, "minor_amount", FieldType.MINOR_AMOUNT, "currency", FieldType.CURRENCY,
            "timestamp", FieldType.TIMESTAMP, "flag", FieldType.FLAG);

    private ProcessDeclarations() {
    }

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
        ProcessType type = new ProcessType(name, declaration.getString("description", ""), input, steps, declaration);
        StepReferences.refuseBroken(where, type);
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
