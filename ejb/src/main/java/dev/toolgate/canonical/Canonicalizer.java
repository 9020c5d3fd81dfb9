package dev.toolgate.canonical;

import static dev.toolgate.canonical.Jsons.JSON;

import static dev.toolgate.canonical.InvalidCommand.Reason.UNKNOWN_OPERATION;
import static dev.toolgate.canonical.InvalidCommand.Reason.UNKNOWN_TARGET;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Turns an agent's command into its canonical form and fingerprint, or refuses it. */
public final class Canonicalizer {

    private Canonicalizer() {
    }

    public static CanonicalRequest canonicalize(AgentCommand command) {
        OperationSpec spec = OperationCatalog.find(command.operation())
                .orElseThrow(() -> new InvalidCommand(UNKNOWN_OPERATION, "unknown operation '" + command.operation() + "'"));
        if (!spec.target().equals(command.target())) {
            throw new InvalidCommand(UNKNOWN_TARGET,
                    "operation '" + spec.operation() + "' is served by target '" + spec.target() + "', not '" + command.target() + "'");
        }
        JsonObject payload = significantFields(spec, command.payload());
        JsonObject hashed = JSON.createObjectBuilder(payload)
                .add("operation", spec.operation())
                .add("target", spec.target())
                .build();
        List<String> withheld = spec.fields().stream()
                .filter(f -> f.sensitive() && payload.containsKey(f.name())).map(FieldSpec::name).toList();
        return new CanonicalRequest(spec.operation(), spec.target(), payload, stored(payload, withheld), withheld,
                Fingerprint.of(CanonicalJson.write(hashed)));
    }

    /** What the journal keeps of {@code payload}: all of it but the fields withheld; the same object when none are. */
    private static JsonObject stored(JsonObject payload, List<String> withheld) {
        if (withheld.isEmpty()) {
            return payload;
        }
        JsonObjectBuilder stored = JSON.createObjectBuilder(payload);
        withheld.forEach(stored::remove);
        return stored.build();
    }

    /** A payload against a field list of its own (a process's input or step): the same rules and refusals as an operation's. */
    public static JsonObject canonicalPayload(OperationSpec spec, JsonObject payload) {
        return significantFields(spec, payload);
    }

    private static boolean declares(OperationSpec spec, String name) {
        for (FieldSpec field : spec.fields()) {
            if (field.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static JsonObject significantFields(OperationSpec spec, JsonObject payload) {
        TreeSet<String> unknown = null; // the refusal names the first in order, whatever order the payload came in
        for (String name : payload.keySet()) {
            if (!declares(spec, name) && !OperationCatalog.TRANSPORT_FIELDS.contains(name)) {
                unknown = unknown == null ? new TreeSet<>() : unknown;
                unknown.add(name);
            }
        }
        if (unknown != null) {
            Set<String> known = spec.fields().stream().map(FieldSpec::name).collect(Collectors.toCollection(TreeSet::new));
            throw InvalidCommand.payload(unknown.first(), "is not a field of " + spec.operation() + " (accepted: " + known + ")");
        }
        JsonObjectBuilder normalized = JSON.createObjectBuilder();
        for (FieldSpec field : spec.fields()) {
            JsonValue value = payload.get(field.name());
            if (value == null || value == JsonValue.NULL) {
                if (field.required()) {
                    throw InvalidCommand.payload(field.name(), "is required");
                }
                continue; // an absent optional field and an explicit null are the same intent
            }
            JsonValue canonical = field.type().normalize(field.name(), value, field.maxLength());
            if (canonical != null) { // null: the value means the same as leaving the field out
                normalized.add(field.name(), canonical);
            }
        }
        return normalized.build();
    }
}
