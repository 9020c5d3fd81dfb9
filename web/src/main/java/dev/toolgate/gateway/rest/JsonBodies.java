package dev.toolgate.gateway.rest;

import dev.toolgate.canonical.CommandParser;
import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.gateway.edge.Inputs;
import dev.toolgate.gateway.edge.ProblemException;
import dev.toolgate.gateway.edge.ProblemType;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/** Reading the small JSON bodies of people's calls (approve, revoke, resolve): clear 400s, never a 500. */
final class JsonBodies {

    private JsonBodies() {
    }

    /** A resume takes no parameters: a body of any kind is refused, {@code why} saying what is sent instead. */
    static void none(String body, String why) {
        if (body != null && !body.isBlank()) {
            throw new ProblemException(ProblemType.RESUME_TAKES_NO_PARAMETERS, why);
        }
    }

    /** Read as strictly as an operation's body (RFC 7493), so a duplicate name cannot pick which value counts. */
    static JsonObject object(byte[] body, String shape) {
        JsonValue value;
        try {
            value = IJsonReader.read(CommandParser.utf8(body));
        } catch (InvalidCommand e) {
            if (e.reason() != InvalidCommand.Reason.MALFORMED_JSON) {
                throw e;
            }
            value = null;
        }
        if (!(value instanceof JsonObject object)) {
            throw new ProblemException(ProblemType.MALFORMED_JSON, shape);
        }
        return object;
    }

    /**
     * A required string of 1..{@code max} characters. Free text is journaled, logged and shown to people: it passes
     * the edge's rules ({@link Inputs}: no control characters but line breaks and tabs, no lone surrogates, no card number).
     */
    static String text(JsonObject spec, String field, int max) {
        String value = optionalText(spec, field, max);
        if (value == null) {
            throw new ProblemException(ProblemType.INVALID_REQUEST, field + " is required: a string of 1-" + max + " characters");
        }
        return value;
    }

    static String optionalText(JsonObject spec, String field, int max) {
        if (spec.get(field) == null || spec.isNull(field)) {
            return null;
        }
        if (!(spec.get(field) instanceof JsonString s) || s.getString().isBlank() || s.getString().length() > max) {
            throw new ProblemException(ProblemType.INVALID_REQUEST, field + " must be a string of 1-" + max + " characters");
        }
        return Inputs.text(field, s.getString(), Inputs.Text.PROSE, max);
    }

    static Long optionalWhole(JsonObject spec, String field, long min, long max) {
        if (spec.get(field) == null || spec.isNull(field)) {
            return null;
        }
        if (!(spec.get(field) instanceof JsonNumber n) || !n.isIntegral() || n.longValue() < min || n.longValue() > max) {
            throw new ProblemException(ProblemType.INVALID_REQUEST, field + " must be a whole number from " + min + " to " + max);
        }
        return n.longValue();
    }
}
