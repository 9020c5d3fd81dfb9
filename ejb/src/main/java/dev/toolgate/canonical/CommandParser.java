package dev.toolgate.canonical;

import static dev.toolgate.canonical.InvalidCommand.Reason.INVALID_REQUEST;
import static dev.toolgate.canonical.InvalidCommand.Reason.MALFORMED_JSON;
import static dev.toolgate.canonical.InvalidCommand.Reason.NOT_I_JSON;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/** Reads the request envelope: anything but one I-JSON object of the documented shape, free of card numbers, is refused (docs/input.md). */
public final class CommandParser {

    private static final Set<String> ENVELOPE = Set.of("operation", "target", "payload");

    private CommandParser() {
    }

    public static AgentCommand parse(byte[] body) {
        return parse(utf8(body));
    }

    /** Bytes as UTF-8 text, strictly: bytes that are not UTF-8 are refused, never replaced with U+FFFD. */
    public static String utf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body == null ? new byte[0] : body)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidCommand(NOT_I_JSON, "the request body is not UTF-8 (RFC 7493 §2.1)");
        }
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
        if (!(IJsonReader.read(body) instanceof JsonObject object)) {
            throw new InvalidCommand(MALFORMED_JSON, "the request body must be a JSON object");
        }
        return object;
    }

    private static String text(JsonObject envelope, String field) {
        JsonValue value = envelope.get(field);
        if (!(value instanceof JsonString s) || s.getString().isBlank()) {
            throw new InvalidCommand(INVALID_REQUEST, "'" + field + "' must be a non-empty string");
        }
        return s.getString();
    }
}
