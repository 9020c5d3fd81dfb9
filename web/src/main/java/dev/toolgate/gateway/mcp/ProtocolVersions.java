package dev.toolgate.gateway.mcp;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.util.List;

/** Version negotiation (MCP lifecycle): a revision we speak is echoed; any other gets our latest, and the client decides. */
final class ProtocolVersions {

    static final String LATEST = "2025-11-25";
    /**
     * The revisions whose Streamable HTTP transport and tool shapes this endpoint serves, newest first.
     * Not 2025-03-26: it requires servers to accept JSON-RPC batches, which later revisions removed and
     * this endpoint refuses; a client asking for it is offered the latest.
     */
    static final List<String> SUPPORTED = List.of(LATEST, "2025-06-18");

    private ProtocolVersions() {
    }

    static String negotiate(JsonObject initializeParams) {
        return initializeParams.get("protocolVersion") instanceof JsonString asked && SUPPORTED.contains(asked.getString())
                ? asked.getString() : LATEST;
    }
}
