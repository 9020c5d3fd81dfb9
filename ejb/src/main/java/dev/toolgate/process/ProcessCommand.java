package dev.toolgate.process;

import static dev.toolgate.canonical.InvalidCommand.Reason.INVALID_REQUEST;
import static dev.toolgate.canonical.InvalidCommand.Reason.MALFORMED_JSON;

import dev.toolgate.canonical.CardNumbers;
import dev.toolgate.canonical.CommandParser;
import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.canonical.InvalidCommand;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/** An agent's process as sent: {@code {"process": "order.fulfil", "payload": {…}}}. */
public record ProcessCommand(String process, JsonObject payload) {

    /** The body as it came off the wire, with the same refusals as an operation's (UTF-8, I-JSON, card numbers). */
    public static ProcessCommand parse(byte[] body) {
        String text = CommandParser.utf8(body);
        if (text.isBlank()) {
            throw new InvalidCommand(MALFORMED_JSON, "the request body is empty");
        }
        if (!(IJsonReader.read(text) instanceof JsonObject envelope)) {
            throw new InvalidCommand(MALFORMED_JSON, "the request body must be a JSON object");
        }
        return of(envelope);
    }

    public static ProcessCommand of(JsonObject envelope) {
        String card = CardNumbers.find("", envelope);
        if (card != null) { // refused before anything is stored; the message names the field, never the value
            throw new InvalidCommand(InvalidCommand.Reason.CARD_NUMBER, card,
                    card + " carries what looks like a payment card number; card data never passes through the gateway");
        }
        for (String field : envelope.keySet()) {
            if (!field.equals("process") && !field.equals("payload")) {
                throw new InvalidCommand(INVALID_REQUEST, "unknown field '" + field + "': the body is {process, payload}");
            }
        }
        if (!(envelope.get("process") instanceof JsonString process) || process.getString().isBlank()) {
            throw new InvalidCommand(INVALID_REQUEST, "'process' must be a non-empty string: the process type");
        }
        JsonValue payload = envelope.get("payload");
        if (!(payload instanceof JsonObject payloadObject)) {
            throw new InvalidCommand(INVALID_REQUEST, "'payload' must be a JSON object");
        }
        return new ProcessCommand(process.getString(), payloadObject);
    }
}
