package dev.toolgate.gateway.mcp;

import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

/**
 * MCP's W3C trace context in {@code params._meta.traceparent} (2025-11-25), taken as REST's {@code Correlation} takes
 * the header, and winning over the header because it travels with the message through any proxy.
 */
final class McpTracing {

    private McpTracing() {
    }

    /** What the server span says of the message: HTTP's and MCP's own attributes, no parameter values. */
    static void describe(Step span, JsonRpc.Message message) {
        if (!Spans.recording()) {
            return;
        }
        span.set("http.request.method", "POST").set("http.route", McpEndpoint.PATH).set("rpc.system", "jsonrpc");
        if (message instanceof JsonRpc.Call call) {
            span.set("mcp.method.name", Spans.identifier(call.method(), 64))
                    .set("jsonrpc.request.id", Spans.identifier(JsonRpc.idText(call.id()), Spans.MAX_ID));
        }
    }

    static String traceparent(JsonRpc.Message message, String header) {
        if (message instanceof JsonRpc.Call call && call.params().get("_meta") instanceof JsonObject meta
                && meta.get("traceparent") instanceof JsonString traceparent) {
            return traceparent.getString();
        }
        return header;
    }
}
