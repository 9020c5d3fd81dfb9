package dev.toolgate.canonical;

import static dev.toolgate.canonical.InvalidCommand.Reason.INVALID_REQUEST;
import static dev.toolgate.canonical.InvalidCommand.Reason.MALFORMED_JSON;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.util.Set;

/** Reads the request envelope; anything but exactly one JSON object of the documented shape is refused. */
public final class CommandParser {

    private static final Set<String> ENVELOPE = Set.of("operation", "target", "payload");

    private CommandParser() {
    }

    public static AgentCommand parse(String body) {
        JsonObject envelope = readObject(body);
        for (String field : envelope.keySet()) {
            if (!ENVELOPE.contains(field) && !OperationCatalog.TRANSPORT_FIELDS.contains(field)) {
                throw new InvalidCommand(INVALID_REQUEST, "unknown field '" + field + "': the body is {operation, target, payload}");
            }
        }
        JsonValue payload = envelope.get("payload");
        if (!(payload instanceof JsonObject payloadObject)) {
            throw new InvalidCommand(INVALID_REQUEST, "'payload' must be a JSON object");
        }
        return new AgentCommand(text(envelope, "operation"), text(envelope, "target"), payloadObject);
    }

    private static JsonObject readObject(String body) {
        if (body == null || body.isBlank()) {
            throw new InvalidCommand(MALFORMED_JSON, "the request body is empty");
        }
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            JsonValue value = reader.readValue();
            if (!(value instanceof JsonObject object)) {
                throw new InvalidCommand(MALFORMED_JSON, "the request body must be a JSON object");
            }
            return object;
        } catch (JsonException | IllegalStateException e) {
            // parser messages carry positions only, never payload values: safe to pass on
            throw new InvalidCommand(MALFORMED_JSON, "the request body is not valid JSON: " + e.getMessage());
        }
    }

    private static String text(JsonObject envelope, String field) {
        JsonValue value = envelope.get(field);
        if (!(value instanceof JsonString s) || s.getString().isBlank()) {
            throw new InvalidCommand(INVALID_REQUEST, "'" + field + "' must be a non-empty string");
        }
        return s.getString();
    }
}
