package dev.toolgate.gateway.mcp;

import dev.toolgate.canonical.FieldSpec;
import dev.toolgate.gateway.edge.ProblemType;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a known tool's arguments have the shape its {@code inputSchema} declares (members, required ones, JSON
 * types). A call that fails here reaches nothing and gets an error result typed as REST types the same bad input, not
 * -32602: hosts do not show protocol errors to the model, which must correct them (SEP-1303, MCP 2025-11-25). What
 * the shape allows but a field's rule refuses (a fraction of a kopeck) is left to the gateway's validation.
 */
final class Arguments {

    /** What is wrong, with the REST problem type of the same bad input; {@code argument} names the culprit, or is null. */
    record Refusal(ProblemType type, String argument, String detail) {
    }

    private Arguments() {
    }

    /** What is wrong with {@code arguments} for {@code tool}, or empty when they have its shape. */
    static Optional<Refusal> problem(Tool tool, JsonValue arguments) {
        if (!(arguments instanceof JsonObject args)) { // as REST's "payload must be a JSON object"
            return refuse(ProblemType.INVALID_REQUEST, null, "arguments must be an object (the tool's inputSchema), not " + kind(arguments));
        }
        List<FieldSpec> fields = tool.operation() == null ? List.of() : tool.operation().fields();
        boolean takesKey = !ToolCatalog.LIST_OPEN_OPERATIONS.equals(tool.name());
        Set<String> accepted = new TreeSet<>();
        fields.forEach(f -> accepted.add(f.name()));
        if (takesKey) {
            accepted.add(ToolSchemas.KEY);
        }
        Optional<String> unknown = new TreeSet<>(args.keySet()).stream().filter(name -> !accepted.contains(name)).findFirst();
        if (unknown.isPresent()) {
            return refuse(unknownType(tool), unknown.get(), "'" + unknown.get() + "' is not an argument of " + tool.name()
                    + (accepted.isEmpty() ? "; it takes none" : " (accepted: " + String.join(", ", accepted) + ")"));
        }
        return (takesKey ? key(args.get(ToolSchemas.KEY)) : Optional.<Refusal>empty()).or(() -> fields(fields, args));
    }

    /** As REST: a member the operation does not have is its payload's fault; resume takes nothing but the key. */
    private static ProblemType unknownType(Tool tool) {
        if (tool.operation() != null) {
            return ProblemType.INVALID_PAYLOAD;
        }
        return ToolCatalog.RESUME_OPERATION.equals(tool.name()) || ToolCatalog.RESUME_PROCESS.equals(tool.name())
                ? ProblemType.RESUME_TAKES_NO_PARAMETERS : ProblemType.INVALID_REQUEST;
    }

    /** Missing is REST's missing header; its form (whitespace, length) is checked where REST checks a header's. */
    private static Optional<Refusal> key(JsonValue key) {
        String expected = "a string naming the business intent, <contour>:<operation>:<intent-id>:<version>,"
                + " made once and sent unchanged on every retry";
        if (key == null || key == JsonValue.NULL) {
            return refuse(ProblemType.IDEMPOTENCY_KEY_MISSING, ToolSchemas.KEY, ToolSchemas.KEY + " is required: " + expected);
        }
        return key instanceof JsonString ? Optional.empty()
                : refuse(ProblemType.IDEMPOTENCY_KEY_INVALID, ToolSchemas.KEY, ToolSchemas.KEY + " must be " + expected + "; not " + kind(key));
    }

    /** As REST's {@code Canonicalizer}: a missing or ill-typed payload field is {@code invalid-payload}, naming it. */
    private static Optional<Refusal> fields(List<FieldSpec> fields, JsonObject args) {
        for (FieldSpec field : fields) {
            JsonValue value = args.get(field.name());
            String type = ToolSchemas.jsonType(field.type());
            String expected = type + ", " + ToolSchemas.field(field).getString("description");
            if (value == null || value == JsonValue.NULL) {
                if (field.required()) {
                    return refuse(ProblemType.INVALID_PAYLOAD, field.name(), "argument '" + field.name() + "' is required: " + expected);
                }
            } else if (!hasType(value, type)) {
                return refuse(ProblemType.INVALID_PAYLOAD, field.name(), "argument '" + field.name() + "' must be " + expected
                        + "; not " + kind(value));
            }
        }
        return Optional.empty();
    }

    private static Optional<Refusal> refuse(ProblemType type, String argument, String detail) {
        return Optional.of(new Refusal(type, argument, detail));
    }

    /** An integer's fraction is left to the field's rule, whose message says minor units. */
    private static boolean hasType(JsonValue value, String type) {
        return switch (type) {
            case "integer" -> value instanceof JsonNumber;
            case "boolean" -> value == JsonValue.TRUE || value == JsonValue.FALSE;
            default -> value instanceof JsonString;
        };
    }

    /** What was sent instead, in the words of JSON, for the model to see its mistake. */
    private static String kind(JsonValue value) {
        return switch (value.getValueType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case TRUE, FALSE -> "a boolean";
            case NULL -> "null";
        };
    }
}
