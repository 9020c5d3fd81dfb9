package dev.toolgate.gateway.mcp;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

/**
 * The body's values that 2026-07-28 mirrors into headers ({@code Mcp-Method}, {@code Mcp-Name},
 * {@code Mcp-Param-Idempotency-Key}) checked against the body, as a pure function. A proxy routes and deduplicates by
 * the headers while this server executes the body: if they differed, the key the proxy saw would not be the journal's.
 * Modern requests must carry them; a legacy request's are checked too (transports: Server Validation, Custom Headers).
 */
final class MirroredHeaders {

    static final String METHOD = "Mcp-Method";
    static final String NAME = "Mcp-Name";
    /** {@code x-mcp-header} of every tool's {@code idempotency_key}: the REST API's header name, after the prefix. */
    static final String KEY_PARAM = "Idempotency-Key";
    static final String KEY_HEADER = "Mcp-Param-" + KEY_PARAM;
    /** Which body member {@code Mcp-Name} mirrors, by method (2026-07-28 Standard Request Headers; the tasks extension). */
    private static final Map<String, String> NAME_SOURCE = Map.of("tools/call", "name", "tasks/get", "taskId",
            "tasks/cancel", "taskId", "tasks/update", "taskId");
    /** The headers that each name one thing of the body: each may be sent once. */
    private static final List<String> SINGLE = List.of(EraLadder.VERSION_HEADER, METHOD, NAME, KEY_HEADER);
    private static final String SENTINEL_START = "=?base64?";
    private static final String SENTINEL_END = "?=";

    private MirroredHeaders() {
    }

    /** What is wrong with the headers of {@code call} ({@code header} reads one by name, null when absent), or empty. */
    static Optional<String> mismatch(boolean modern, UnaryOperator<String> header, JsonRpc.Call call) {
        Optional<String> method = compare(METHOD, header.apply(METHOD), call.method(), modern);
        if (method.isPresent()) {
            return method;
        }
        String source = NAME_SOURCE.get(call.method());
        if (source != null) {
            Optional<String> name = compare(NAME, header.apply(NAME), text(call.params().get(source)), modern);
            if (name.isPresent()) {
                return name;
            }
        }
        if ("tools/call".equals(call.method()) && declaresKeyHeader(call.params().get("name"))) {
            JsonValue args = call.params().get("arguments");
            return compare(KEY_HEADER, header.apply(KEY_HEADER), args instanceof JsonObject a ? text(a.get(ToolSchemas.KEY)) : null, modern);
        }
        return Optional.empty();
    }

    /** A single header sent more than once: a proxy may act on the last value where this server reads the first. */
    static Optional<String> repeated(ToIntFunction<String> count) {
        return SINGLE.stream().filter(name -> count.applyAsInt(name) > 1).findFirst()
                .map(name -> "the " + name + " header is sent more than once; send it once");
    }

    /** Every tool but {@code list_open_operations}, which takes no key, declares its key for mirroring. */
    static boolean declaresKeyHeader(JsonValue toolName) {
        return toolName instanceof JsonString s && !ToolCatalog.LIST_OPEN_OPERATIONS.equals(s.getString());
    }

    /** A body value as the header carries it; null when absent, null or not a scalar (then no header is expected). */
    private static String text(JsonValue value) {
        if (value instanceof JsonString s) {
            return s.getString();
        }
        if (value instanceof JsonNumber n) {
            return n.isIntegral() ? n.bigIntegerValue().toString() : n.toString();
        }
        return value == JsonValue.TRUE || value == JsonValue.FALSE ? value.toString() : null;
    }

    private static Optional<String> compare(String name, String sent, String body, boolean required) {
        if (sent == null) {
            return body != null && required ? Optional.of("the " + name + " header is required: the body has a value for it")
                    : Optional.empty();
        }
        Optional<String> decoded = decode(sent);
        if (decoded.isEmpty()) {
            return Optional.of("the " + name + " header is not a valid header value");
        }
        if (body == null) {
            return Optional.of("the " + name + " header is sent but the body has no value for it");
        }
        // the values are not quoted: a key or an argument may carry what must not be echoed (a card number is refused later)
        return decoded.get().equals(body) ? Optional.empty() : Optional.of("the " + name + " header does not match the body's value");
    }

    /** A plain visible-ASCII value, or the Base64 sentinel form ({@code =?base64?…?=}) of UTF-8; empty when neither. */
    static Optional<String> decode(String value) {
        if (value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END) && value.length() >= SENTINEL_START.length() + SENTINEL_END.length()) {
            String encoded = value.substring(SENTINEL_START.length(), value.length() - SENTINEL_END.length());
            if (encoded.length() % 4 != 0) { // the JDK's decoder takes unpadded input; SEP-2243 refuses it
                return Optional.empty();
            }
            try {
                byte[] bytes = Base64.getDecoder().decode(encoded);
                return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes)).toString());
            } catch (IllegalArgumentException | CharacterCodingException e) {
                return Optional.empty();
            }
        }
        return value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c <= 0x7E)) ? Optional.of(value) : Optional.empty();
    }
}
