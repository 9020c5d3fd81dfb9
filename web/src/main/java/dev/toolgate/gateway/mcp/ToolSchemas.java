package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.canonical.FieldSpec;
import dev.toolgate.canonical.FieldType;
import dev.toolgate.canonical.OperationSpec;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * JSON Schemas of the tools, generated from the same {@link FieldSpec}s the gateway validates every payload
 * with (REST and MCP alike), so a schema cannot promise what the gateway refuses. Only keywords that
 * JSON Schema 2020-12 and draft-07 read alike, because clients validate with either.
 */
final class ToolSchemas {

    static final String KEY = "idempotency_key";

    private ToolSchemas() {
    }

    /** An operation's arguments: its payload fields, flat, plus the key. */
    static JsonObject input(OperationSpec spec) {
        JsonObjectBuilder properties = JSON.createObjectBuilder().add(KEY, key());
        JsonArrayBuilder required = JSON.createArrayBuilder().add(KEY);
        for (FieldSpec field : spec.fields()) {
            properties.add(field.name(), field(field));
            if (field.required()) {
                required.add(field.name());
            }
        }
        return JSON.createObjectBuilder().add("type", "object").add("properties", properties)
                .add("required", required).add("additionalProperties", false).build();
    }

    static JsonObject keyOnly() {
        return JSON.createObjectBuilder().add("type", "object").add("properties", JSON.createObjectBuilder().add(KEY, key()))
                .add("required", JSON.createArrayBuilder().add(KEY)).add("additionalProperties", false).build();
    }

    static JsonObject noArguments() {
        return JSON.createObjectBuilder().add("type", "object").add("properties", JSON.createObjectBuilder())
                .add("additionalProperties", false).build();
    }

    /** Every tool answers with this shape in {@code structuredContent}; {@code outcome} says which members are there. */
    static JsonObject output() {
        JsonObjectBuilder properties = JSON.createObjectBuilder()
                .add("outcome", JSON.createObjectBuilder().add("type", "string").add("enum", JSON.createArrayBuilder(ToolResults.OUTCOMES)))
                .add("operation_key", typed("string"))
                .add("process_key", typed("string"))
                .add("replayed", typed("boolean"))
                .add("target_object_id", typed("string"))
                .add("result", typed("object"))
                .add("retry_after_seconds", typed("integer"))
                .add("detail", typed("string"))
                .add("approval", typed("object"))
                .add("problem", typed("object"))
                .add("operation", typed("object"))
                .add("operations", typed("array"))
                .add("process", typed("object"));
        return JSON.createObjectBuilder().add("type", "object").add("properties", properties)
                .add("required", JSON.createArrayBuilder().add("outcome")).build();
    }

    static JsonObject field(FieldSpec field) {
        JsonObjectBuilder schema = JSON.createObjectBuilder();
        FieldType type = field.type();
        switch (type) {
            case TEXT -> schema.add("type", "string").add("minLength", 1).add("maxLength", field.maxLength())
                    .add("description", "text, kept exactly as sent");
            case MINOR_AMOUNT -> schema.add("type", "integer").add("minimum", 1).add("maximum", FieldType.MAX_MINOR)
                    .add("description", "money in minor units (kopecks, cents) as an integer: 125000 is 1250.00; never a fraction");
            case CURRENCY -> schema.add("type", "string").add("pattern", "^[A-Za-z]{3}$")
                    .add("description", "ISO 4217 currency code, e.g. RUB");
            case TIMESTAMP -> schema.add("type", "string")
                    .add("description", "ISO-8601 timestamp with an offset, e.g. 2026-12-01T12:00:00+03:00");
            case FLAG -> schema.add("type", "boolean").add("description", "off unless true");
            case INN -> schema.add("type", "string").add("pattern", "^([0-9]{10}|[0-9]{12})$")
                    .add("description", "Russian taxpayer number: 10 digits (organization) or 12 (person)"
                            + (field.sensitive() ? "; personal data, never stored by the gateway" : ""));
            case GUID -> schema.add("type", "string")
                    .add("pattern", "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")
                    .add("description", "a GUID reference to an existing object (a 1C Ref_Key), e.g. 5e1d7a3c-0643-4f00-8000-000000000643");
            case NUMERIC_ID -> schema.add("type", "string").add("pattern", "^[1-9][0-9]{0," + (field.maxLength() - 1) + "}$")
                    .add("description", "the numeric id of an existing object as a string, e.g. \"4711\"");
        }
        return schema.build();
    }

    /** The JSON type an argument must have; {@link Arguments} refuses any other before the gateway sees it. */
    static String jsonType(FieldType type) {
        return switch (type) {
            case MINOR_AMOUNT -> "integer";
            case FLAG -> "boolean";
            default -> "string";
        };
    }

    /** Mirrored into {@code Mcp-Param-Idempotency-Key} ({@code x-mcp-header}) for proxies; older clients ignore it. */
    private static JsonObject key() {
        return JSON.createObjectBuilder().add("type", "string").add("minLength", 1).add("maxLength", 255)
                .add("pattern", "^[!-~]+$").add("x-mcp-header", MirroredHeaders.KEY_PARAM)
                .add("description", "<contour>:<operation>:<intent-id>:<version>, e.g. prod:invoice.create:order-48291:v1."
                        + " Made once per business intent and sent unchanged on every retry of it").build();
    }

    private static JsonObject typed(String type) {
        return JSON.createObjectBuilder().add("type", type).build();
    }
}
