package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.gateway.edge.MethodsServedTest;
import org.junit.jupiter.api.Test;

/** {@code /mcp} serves POST alone, and its protected-resource document GET alone: every other method is 405 with Allow. */
class McpEndpointMethodsTest {

    @Test
    void answersEveryMethodButPostWith405AllowingPost() throws Exception {
        for (String method : new String[] {"PATCH", "GET", "PUT", "DELETE", "FOO"}) {
            assertEquals("405 POST, OPTIONS", MethodsServedTest.answer(new McpEndpoint(), method, "/mcp"), method);
        }
    }

    @Test
    void answersEveryMethodButGetOnTheMetadataWith405AllowingGet() throws Exception {
        assertEquals("405 GET, HEAD, OPTIONS", MethodsServedTest.answer(new ProtectedResourceMetadata(), "PATCH", McpEndpoint.METADATA));
    }
}
