package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.canonical.CommandParser;
import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.trace.Spans;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * JSON-RPC 2.0 as MCP uses it: what one POSTed body is, as a pure function, and the shapes of the replies.
 * A body is one message (MCP dropped batches in 2025-06-18); anything else is refused with the
 * protocol's own error codes, never an HTTP 500.
 */
final class JsonRpc {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /**
     * JSON-RPC's range for an implementation's own server errors (-32000 to -32099), below the part MCP reserves: the
     * journal does not answer, so nothing was done; the same request again, after {@code retry_after_seconds}, is safe.
     */
    static final int SERVER_UNAVAILABLE = -32000;
    /** 2026-07-28's codes, from the range the specification reserves (-32020 to -32099): always HTTP 400. */
    static final int HEADER_MISMATCH = -32020;
    static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private JsonRpc() {
    }

    sealed interface Message {
    }

    /** A request: it is answered with a result or an error under its {@code id}. */
    record Call(JsonValue id, String method, JsonObject params) implements Message {
    }

    /** A notification (no {@code id}): acknowledged with 202 and no body. */
    record Notice(String method) implements Message {
    }

    /** The client's answer to a request of ours; we send none, so it is acknowledged and dropped. */
    record Reply() implements Message {
    }

    /** Not a message we can act on: answered with this error, under the request's id when one could be read. */
    record Malformed(JsonValue id, int code, String message) implements Message {
    }

    static Message read(byte[] body) {
        JsonValue value;
        try {
            value = IJsonReader.read(CommandParser.utf8(body));
        } catch (InvalidCommand e) { // strict I-JSON: a duplicate member name cannot choose the method or the key
            return new Malformed(JsonValue.NULL, PARSE_ERROR, "parse error: " + e.getMessage());
        }
        if (!(value instanceof JsonObject message)) {
            return new Malformed(JsonValue.NULL, INVALID_REQUEST, "a message is one JSON-RPC 2.0 object (batches are not part of MCP)");
        }
        return classify(message);
    }

    static Message classify(JsonObject message) {
        JsonValue id = message.get("id");
        boolean idUsable = id instanceof JsonString || id instanceof JsonNumber n && n.isIntegral();
        JsonValue replyId = idUsable ? id : JsonValue.NULL;
        if (!(message.get("jsonrpc") instanceof JsonString version) || !"2.0".equals(version.getString())) {
            return new Malformed(replyId, INVALID_REQUEST, "jsonrpc must be \"2.0\"");
        }
        if (!message.containsKey("method") && (message.containsKey("result") || message.containsKey("error"))) {
            return new Reply();
        }
        if (!(message.get("method") instanceof JsonString method) || method.getString().isEmpty()) {
            return new Malformed(replyId, INVALID_REQUEST, "method must be a non-empty string");
        }
        JsonValue params = message.get("params");
        if (params != null && !(params instanceof JsonObject)) {
            return new Malformed(replyId, INVALID_PARAMS, "params must be an object");
        }
        if (id == null) {
            return new Notice(method.getString());
        }
        if (!idUsable) { // MCP: a request id is a string or an integer, never null
            return new Malformed(JsonValue.NULL, INVALID_REQUEST, "id must be a string or an integer");
        }
        return new Call(id, method.getString(), params == null ? JsonValue.EMPTY_JSON_OBJECT : (JsonObject) params);
    }

    /** A request id as text, for a trace ({@code gen_ai.tool.call.id}, checked there by {@link Spans#identifier}); null when absent. */
    static String idText(JsonValue id) {
        return id instanceof JsonString s ? s.getString() : id instanceof JsonNumber n ? n.toString() : null;
    }

    static JsonObject result(JsonValue id, JsonObject result) {
        return JSON.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("result", result).build();
    }

    static JsonObject error(JsonValue id, int code, String message) {
        return JSON.createObjectBuilder().add("jsonrpc", "2.0").add("id", id)
                .add("error", JSON.createObjectBuilder().add("code", code).add("message", message)).build();
    }

    static JsonObject error(JsonValue id, int code, String message, JsonObject data) {
        return JSON.createObjectBuilder().add("jsonrpc", "2.0").add("id", id)
                .add("error", JSON.createObjectBuilder().add("code", code).add("message", message).add("data", data)).build();
    }

    /** The error code of a reply, or 0 for a result. */
    static int errorCode(JsonObject reply) {
        return reply.get("error") instanceof JsonObject error && error.get("code") instanceof JsonNumber code ? code.intValue() : 0;
    }
}
