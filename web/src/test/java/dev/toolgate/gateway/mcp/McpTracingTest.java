package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

class McpTracingTest {

    private static final String META = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String HEADER = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private static JsonRpc.Message call(String params) {
        return JsonRpc.read(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":" + params + "}").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void takesTheTraceparentOfTheCallsMetaOverTheHeader() {
        assertEquals(META, McpTracing.traceparent(call("{\"_meta\":{\"traceparent\":\"" + META + "\"}}"), HEADER));
    }

    @Test
    void fallsBackToTheHeaderWithoutMeta() {
        assertEquals(HEADER, McpTracing.traceparent(call("{\"name\":\"x\"}"), HEADER));
        assertEquals(HEADER, McpTracing.traceparent(call("{\"_meta\":{\"traceparent\":7}}"), HEADER));
    }

    @Test
    void fallsBackToTheHeaderForAMalformedMessage() {
        assertEquals(HEADER, McpTracing.traceparent(JsonRpc.read("{".getBytes(StandardCharsets.UTF_8)), HEADER));
    }
}
