package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Role;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** The console's settings ({@link ConsoleSettings}): what a deployment that says nothing gets, and what it may change. */
class ConsoleSettingsTest {

    @Test
    void isDisabledUntilAnIdentityProviderIsNamed() {
        ConsoleSettings settings = settings(Map.of());
        assertFalse(settings.enabled());
        assertEquals("", settings.getProviderUri());
    }

    @Test
    void isDisabledByABlankProvider() {
        assertFalse(settings(Map.of("toolgate.console.oidc.provider-uri", "   ")).enabled());
        assertFalse(settings(Map.of("toolgate.console.oidc.provider-uri", "")).enabled());
    }

    @Test
    void isEnabledByAProviderWhichItKeepsStripped() {
        ConsoleSettings settings = settings(Map.of("toolgate.console.oidc.provider-uri", " https://id.example.com/realms/acme "));
        assertTrue(settings.enabled());
        assertEquals("https://id.example.com/realms/acme", settings.getProviderUri());
    }

    @Test
    void hasDefaultsForEverythingElse() {
        ConsoleSettings settings = settings(Map.of());
        assertEquals("toolgate-console", settings.getClientId());
        assertEquals("", settings.getClientSecret());
        assertEquals("login", settings.getPrompt(), "every session starts with the person proving who they are");
        assertEquals("preferred_username", settings.nameClaim());
        assertEquals("tenant", settings.tenantClaim());
        assertEquals("groups", settings.groupsClaim());
        assertEquals(Map.of(Role.APPROVER, "approvers", Role.OPERATOR, "operators", Role.AUDITOR, "auditors", Role.ADMIN, "admins"),
                settings.roleGroups());
        assertEquals(Duration.ofMinutes(15), settings.idleTimeout());
        assertEquals(Duration.ofHours(8), settings.maxSession());
        assertEquals(Optional.empty(), settings.traceLink("4bf92f3577b34da6a3ce929d0e0e4736"));
        assertTrue(settings.secureCookie());
    }

    @Test
    void readsEverySetting() {
        ConsoleSettings settings = settings(Map.ofEntries(
                Map.entry("toolgate.console.oidc.client-id", "console"),
                Map.entry("toolgate.console.oidc.client-secret", "s3cret"),
                Map.entry("toolgate.console.oidc.prompt", " consent "),
                Map.entry("toolgate.console.claims.name", "email"),
                Map.entry("toolgate.console.claims.tenant", "org"),
                Map.entry("toolgate.console.claims.groups", "roles"),
                Map.entry("toolgate.console.groups.approver", "/finance/approve"),
                Map.entry("toolgate.console.groups.admin", "/it/admin"),
                Map.entry("toolgate.console.idle-timeout-seconds", "300"),
                Map.entry("toolgate.console.max-session-seconds", "3600"),
                Map.entry("toolgate.console.secure-cookie", "false")));
        assertEquals("console", settings.getClientId());
        assertEquals("s3cret", settings.getClientSecret());
        assertEquals("consent", settings.getPrompt());
        assertEquals("email", settings.nameClaim());
        assertEquals("org", settings.tenantClaim());
        assertEquals("roles", settings.groupsClaim());
        assertEquals(Map.of(Role.APPROVER, "/finance/approve", Role.OPERATOR, "operators", Role.AUDITOR, "auditors", Role.ADMIN, "/it/admin"),
                settings.roleGroups(), "a role left unconfigured keeps its default group");
        assertEquals(Duration.ofMinutes(5), settings.idleTimeout());
        assertEquals(Duration.ofHours(1), settings.maxSession());
        assertFalse(settings.secureCookie());
    }

    @Test
    void mapsNoGroupToTheAgentRole() {
        assertFalse(settings(Map.of("toolgate.console.groups.agent", "agents")).roleGroups().containsKey(Role.AGENT));
    }

    @Test
    void linksATraceToTheConfiguredBackend() {
        ConsoleSettings settings = settings(Map.of("toolgate.console.trace-url", "https://jaeger.example.com/trace/{trace_id}?x=1"));
        assertEquals(Optional.of("https://jaeger.example.com/trace/4bf92f3577b34da6a3ce929d0e0e4736?x=1"),
                settings.traceLink("4bf92f3577b34da6a3ce929d0e0e4736"));
        assertEquals(Optional.empty(), settings.traceLink(null), "an operation without a trace links nowhere");
    }

    @Test
    void ignoresATraceUrlWithoutThePlaceForTheTraceId() {
        // a URL that does not name the trace would link every operation to the same page
        ConsoleSettings settings = settings(Map.of("toolgate.console.trace-url", "https://jaeger.example.com/search"));
        assertEquals(Optional.empty(), settings.traceLink("4bf92f3577b34da6a3ce929d0e0e4736"));
        assertEquals(Optional.empty(), settings(Map.of("toolgate.console.trace-url", "https://x/{traceId}"))
                .traceLink("4bf92f3577b34da6a3ce929d0e0e4736"));
    }

    private static ConsoleSettings settings(Map<String, String> values) {
        return MapConfig.settings(values);
    }
}
