package dev.toolgate.canonical;

import static dev.toolgate.canonical.InvalidCommand.Reason.INVALID_REQUEST;
import static dev.toolgate.canonical.InvalidCommand.Reason.NOT_I_JSON;
import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.util.HashSet;
import java.util.Set;

/**
 * Reads JSON and refuses what is not I-JSON (RFC 7493): duplicate names, surrogates or noncharacters, numbers no
 * double holds. Hand-written because JSON-P providers keep the last duplicate and pass lone surrogates, so the
 * fingerprint would cover something other than what the caller sent.
 */
public final class IJsonReader extends JsonTokens {

    /** v1 payloads are flat; anything deeper is an attack on the parser, not an operation. */
    static final int MAX_DEPTH = 16;

    private int depth;

    private IJsonReader(String text) {
        super(text);
    }

    public static JsonValue read(String text) {
        IJsonReader reader = new IJsonReader(text);
        JsonValue value = reader.value();
        reader.whitespace();
        if (reader.at < text.length()) {
            throw reader.malformed("content after the JSON value");
        }
        return value;
    }

    private JsonValue value() {
        whitespace();
        if (at >= text.length()) {
            throw malformed("the text ends where a value should start");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> JSON.createValue(string());
            case 't' -> literal("true", JsonValue.TRUE);
            case 'f' -> literal("false", JsonValue.FALSE);
            case 'n' -> literal("null", JsonValue.NULL);
            default -> {
                if (c != '-' && (c < '0' || c > '9')) {
                    throw unexpected();
                }
                yield number();
            }
        };
    }

    private JsonValue object() {
        nest();
        JsonObjectBuilder object = JSON.createObjectBuilder();
        Set<String> names = new HashSet<>();
        if (!next('}')) {
            do {
                whitespace();
                if (at >= text.length() || text.charAt(at) != '"') {
                    throw malformed("a member name must be a string");
                }
                String name = string();
                if (!names.add(name)) { // RFC 7493 §2.3; the name is not echoed: it may be anything
                    throw new InvalidCommand(NOT_I_JSON, "an object has two members with the same name (RFC 7493 §2.3)");
                }
                expect(':');
                object.add(name, value());
            } while (next(','));
            expect('}');
        }
        depth--;
        return object.build();
    }

    private JsonValue array() {
        nest();
        JsonArrayBuilder array = JSON.createArrayBuilder();
        if (!next(']')) {
            do {
                array.add(value());
            } while (next(','));
            expect(']');
        }
        depth--;
        return array.build();
    }

    private void nest() {
        at++;
        if (++depth > MAX_DEPTH) {
            throw new InvalidCommand(INVALID_REQUEST, "the request nests deeper than " + MAX_DEPTH + " levels");
        }
    }

    private JsonValue number() {
        int start = at;
        take('-');
        if (!take('0')) {
            digits();
        }
        if (take('.')) {
            digits();
        }
        if (take('e') || take('E')) {
            if (!take('+')) {
                take('-');
            }
            digits();
        }
        return JSON.createValue(IJsonRules.number(text.substring(start, at)));
    }

    private JsonValue literal(String word, JsonValue value) {
        if (!text.startsWith(word, at)) {
            throw unexpected();
        }
        at += word.length();
        return value;
    }
}
