package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

class McpSettingsTest {

    private static McpSettings with(String origins, String servers) {
        McpSettings settings = new McpSettings();
        settings.allowedOrigins = Optional.ofNullable(origins);
        settings.authorizationServers = Optional.ofNullable(servers);
        return settings;
    }

    @Test
    void allowsACallWithoutOrigin() {
        assertTrue(with(null, null).allows(null));
    }

    @Test
    void refusesEveryOriginByDefault() {
        assertFalse(with(null, null).allows("http://localhost:6274"));
    }

    @Test
    void allowsExactlyTheConfiguredOrigins() {
        McpSettings settings = with(" https://console.example.com , http://localhost:6274", null);
        assertTrue(settings.allows("https://console.example.com"));
        assertTrue(settings.allows("http://localhost:6274"));
        assertFalse(settings.allows("https://console.example.com.evil.example"));
        assertFalse(settings.allows("null"));
    }

    @Test
    void publishesNoAuthorizationServersUnlessConfigured() {
        assertEquals(List.of(), with(null, null).authorizationServers());
        assertEquals(List.of("https://id.example.com/realms/acme"), with(null, "https://id.example.com/realms/acme,").authorizationServers());
    }

    @Test
    void allowsLocalhostOriginsOnAnyPortWhenTheLocalRunSaysSo() {
        McpSettings settings = with(null, null);
        settings.allowLocalhostOrigins = true;
        assertTrue(settings.allows("http://localhost:6274"));
        assertTrue(settings.allows("http://127.0.0.1:8080"));
        assertTrue(settings.allows("http://[::1]:3000"));
        assertTrue(settings.allows("https://localhost"));
    }

    @Test
    void keepsRefusingARebindingPagesOriginWithLocalhostOriginsAllowed() {
        McpSettings settings = with(null, null);
        settings.allowLocalhostOrigins = true;
        assertFalse(settings.allows("http://evil.example.com"));
        assertFalse(settings.allows("http://localhost.evil.example"));
        assertFalse(settings.allows("http://localhost@evil.example"));
        assertFalse(settings.allows("http://evil@localhost"));
        assertFalse(settings.allows("http://localhost:8080/path"));
        assertFalse(settings.allows("file://localhost"));
        assertFalse(settings.allows("null"));
    }
}
