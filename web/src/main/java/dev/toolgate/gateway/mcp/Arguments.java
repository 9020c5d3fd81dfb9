package dev.toolgate.gateway.mcp;

import dev.toolgate.canonical.FieldSpec;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a tool's arguments have the shape its {@code inputSchema} declares: members, required ones and
 * JSON types. A call that fails here is a protocol error (-32602 invalid params) and reaches nothing;
 * what the shape allows but a field's rule refuses (a fraction of a kopeck, an unknown currency) is left
 * to the gateway's validation and answered as an error result with the REST problem type.
 */
final class Arguments {

    private Arguments() {
    }

    /** What is wrong with {@code arguments} for {@code tool}, or empty when they have its shape. */
    static Optional<String> problem(Tool tool, JsonValue arguments) {
        if (!(arguments instanceof JsonObject args)) {
            return Optional.of("arguments must be an object");
        }
        List<FieldSpec> fields = tool.operation() == null ? List.of() : tool.operation().fields();
        boolean takesKey = !ToolCatalog.LIST_OPEN_OPERATIONS.equals(tool.name());
        Set<String> unknown = new TreeSet<>(args.keySet());
        fields.forEach(f -> unknown.remove(f.name()));
        if (takesKey) {
            unknown.remove(ToolSchemas.KEY);
        }
        if (!unknown.isEmpty()) {
            return Optional.of("unknown argument '" + unknown.iterator().next() + "' for " + tool.name());
        }
        if (takesKey && !(args.get(ToolSchemas.KEY) instanceof JsonString)) {
            return Optional.of(ToolSchemas.KEY + " is required: a string naming the business intent");
        }
        for (FieldSpec field : fields) {
            JsonValue value = args.get(field.name());
            if (value == null || value == JsonValue.NULL) {
                if (field.required()) {
                    return Optional.of("argument '" + field.name() + "' is required");
                }
            } else if (!hasType(value, ToolSchemas.jsonType(field.type()))) {
                return Optional.of("argument '" + field.name() + "' must be " + ToolSchemas.jsonType(field.type()));
            }
        }
        return Optional.empty();
    }

    /** An integer's fraction is left to the field's rule, whose message says minor units. */
    private static boolean hasType(JsonValue value, String type) {
        return switch (type) {
            case "integer" -> value instanceof JsonNumber;
            case "boolean" -> value == JsonValue.TRUE || value == JsonValue.FALSE;
            default -> value instanceof JsonString;
        };
    }
}
