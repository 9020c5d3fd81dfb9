package dev.toolgate.gateway.mcp;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

/**
 * MCP carries W3C trace context in {@code params._meta.traceparent} (reserved by the 2025-11-25 revision);
 * it is taken exactly as the {@code traceparent} header is by the REST API's {@code Correlation}, and wins
 * over the header because it travels with the message through any proxy.
 */
final class McpTracing {

    private McpTracing() {
    }

    static String traceparent(JsonRpc.Message message, String header) {
        if (message instanceof JsonRpc.Call call && call.params().get("_meta") instanceof JsonObject meta
                && meta.get("traceparent") instanceof JsonString traceparent) {
            return traceparent.getString();
        }
        return header;
    }
}
