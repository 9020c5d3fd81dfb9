package dev.toolgate.gateway.mcp;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.util.List;

/**
 * Which revision a request speaks (MCP 2026-07-28, basic/versioning), as a pure table. A request whose
 * {@code params._meta} claims a protocol version is modern and served statelessly; one without is legacy (the
 * {@code initialize} handshake's revisions). The {@code MCP-Protocol-Version} header only cross-checks the body, which
 * is what runs, for the reason {@link MirroredHeaders} gives (transports: Server Validation).
 */
final class ProtocolVersions {

    static final String MODERN = "2026-07-28";
    static final String LEGACY_LATEST = "2025-11-25";
    /**
     * The legacy revisions this endpoint serves, newest first. Not 2025-03-26: it requires JSON-RPC batches, which
     * later revisions removed and this endpoint refuses; a client asking for it is offered the latest.
     */
    static final List<String> LEGACY = List.of(LEGACY_LATEST, "2025-06-18");
    /** What {@code server/discover} and an unsupported-version error list, newest first. */
    static final List<String> SUPPORTED = List.of(MODERN, LEGACY_LATEST, "2025-06-18");
    static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";
    /**
     * A version token: letters, digits, dots and dashes, 32 at most, 8 digits at most — a revision date ({@code 2026-07-28})
     * or a semantic version ({@code v999.0.0}, as the conformance suite sends), never a card number (13 digits or more).
     */
    private static final java.util.regex.Pattern REVISION_SHAPE = java.util.regex.Pattern.compile(
            "(?=[A-Za-z0-9.-]{1,32}$)(?!(?:[^0-9]*[0-9]){9})[A-Za-z0-9][A-Za-z0-9.-]*");
    static final String META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

    private ProtocolVersions() {
    }

    /** The era of one request, or why it cannot be served. */
    sealed interface Era {
    }

    record Legacy() implements Era {
    }

    /** 2026-07-28: version, capabilities and identity on every request; {@code capabilities} as the client declared them. */
    record Modern(String version, JsonObject capabilities) implements Era {
    }

    /** A revision this server does not speak: 400 and -32022 listing {@link #SUPPORTED}. */
    record Unsupported(String requested) implements Era {
    }

    /** The header and the body disagree, or the header is missing: 400 and -32020. */
    record HeaderMismatch(String detail) implements Era {
    }

    /** A modern header without the body's envelope: 400 and -32602, never a silent fall back to legacy. */
    record MissingEnvelope(String detail) implements Era {
    }

    /** The era of a request with these {@code params} and {@code MCP-Protocol-Version} header (null: absent). */
    static Era of(String header, JsonObject params) {
        JsonObject meta = params.get("_meta") instanceof JsonObject m ? m : JsonObject.EMPTY_JSON_OBJECT;
        if (meta.containsKey(META_VERSION)) {
            String claimed = meta.get(META_VERSION) instanceof JsonString s ? s.getString() : meta.get(META_VERSION).toString();
            // neither value is quoted: whatever a client put there (a card number has been) is not repeated
            if (header == null) {
                return new HeaderMismatch("the MCP-Protocol-Version header is required and must be the body's protocolVersion");
            }
            if (!header.equals(claimed)) { // a disagreement outranks what either names: a proxy may have acted on the header
                return new HeaderMismatch("the MCP-Protocol-Version header does not match the body's protocolVersion");
            }
            if (!MODERN.equals(claimed)) {
                return new Unsupported(claimed);
            }
            if (!(meta.get(META_CAPABILITIES) instanceof JsonObject capabilities)) {
                return new MissingEnvelope("params._meta needs \"" + META_CAPABILITIES + "\" (an object, {} for none) on every request");
            }
            return new Modern(MODERN, capabilities);
        }
        if (MODERN.equals(header)) {
            return new MissingEnvelope("MCP-Protocol-Version " + MODERN + " needs params._meta[\"" + META_VERSION + "\"]");
        }
        return header == null || LEGACY.contains(header) ? new Legacy() : new Unsupported(header);
    }

    /**
     * The claim an unsupported-version error must echo, if shaped like a version; otherwise "" (the schema requires the
     * member), so a value of any other shape (a card number, a control character) is not repeated back.
     */
    static String requestedShown(String requested) {
        return requested != null && REVISION_SHAPE.matcher(requested).matches() ? requested : "";
    }

    /** Legacy {@code initialize}: a legacy revision we speak is echoed; any other gets our latest, and the client decides. */
    static String negotiate(JsonObject initializeParams) {
        return initializeParams.get("protocolVersion") instanceof JsonString asked && LEGACY.contains(asked.getString())
                ? asked.getString() : LEGACY_LATEST;
    }
}
