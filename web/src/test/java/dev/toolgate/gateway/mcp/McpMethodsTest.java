package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Set;

class McpMethodsTest {

    @Test
    void initializesWithTheNegotiatedRevisionAndOnlyTheToolsCapability() {
        JsonObject result = McpMethods.initialize(JSON.createObjectBuilder().add("protocolVersion", "2025-06-18").build());
        assertEquals("2025-06-18", result.getString("protocolVersion"));
        assertEquals(Set.of("tools"), result.getJsonObject("capabilities").keySet());
        assertFalse(result.getJsonObject("capabilities").getJsonObject("tools").getBoolean("listChanged"));
        assertEquals("toolgate", result.getJsonObject("serverInfo").getString("name"));
    }

    @Test
    void listsOnlyTheToolsThePrincipalMayCall() {
        JsonObject listed = McpMethods.list(new Caller("auditor", "acme", Set.of(Role.AUDITOR)));
        assertEquals(2, listed.getJsonArray("tools").size());
    }
}
