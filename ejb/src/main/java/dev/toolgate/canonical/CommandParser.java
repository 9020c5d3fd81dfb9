package dev.toolgate.canonical;

import static dev.toolgate.canonical.Jsons.JSON;

import static dev.toolgate.canonical.InvalidCommand.Reason.INVALID_REQUEST;
import static dev.toolgate.canonical.InvalidCommand.Reason.MALFORMED_JSON;

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

    /** v1 payloads are flat; anything deeper is an attack on the parser, not an operation. */
    static final int MAX_DEPTH = 16;

    private CommandParser() {
    }

    public static AgentCommand parse(String body) {
        JsonObject envelope = readObject(body);
        String card = CardNumbers.find("", envelope);
        if (card != null) { // refused before anything is stored; the message names the field, never the value
            throw new InvalidCommand(InvalidCommand.Reason.CARD_NUMBER, card,
                    card + " carries what looks like a payment card number; card data never passes through the gateway");
        }
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
        if (depth(body) > MAX_DEPTH) {
            throw new InvalidCommand(INVALID_REQUEST, "the request nests deeper than " + MAX_DEPTH + " levels");
        }
        try (JsonReader reader = JSON.createReader(new StringReader(body))) {
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

    /** Nesting depth of objects and arrays, outside strings: checked before a parser recurses into it. */
    static int depth(String json) {
        int depth = 0;
        int deepest = 0;
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                deepest = Math.max(deepest, ++depth);
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return deepest;
    }

    private static String text(JsonObject envelope, String field) {
        JsonValue value = envelope.get(field);
        if (!(value instanceof JsonString s) || s.getString().isBlank()) {
            throw new InvalidCommand(INVALID_REQUEST, "'" + field + "' must be a non-empty string");
        }
        return s.getString();
    }
}
