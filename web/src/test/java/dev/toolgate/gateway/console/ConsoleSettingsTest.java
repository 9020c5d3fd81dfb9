package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Role;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/** The console's settings ({@link ConsoleSettings}): what a deployment that says nothing gets, and what it may change. */
class ConsoleSettingsTest {

    @Test
    void isDisabledUntilAnIdentityProviderIsNamed() {
        ConsoleSettings settings = new ConsoleSettings(config(Map.of()));
        assertFalse(settings.enabled());
        assertEquals("", settings.getProviderUri());
    }

    @Test
    void isDisabledByABlankProvider() {
        assertFalse(new ConsoleSettings(config(Map.of("toolgate.console.oidc.provider-uri", "   "))).enabled());
        assertFalse(new ConsoleSettings(config(Map.of("toolgate.console.oidc.provider-uri", ""))).enabled());
    }

    @Test
    void isEnabledByAProviderWhichItKeepsStripped() {
        ConsoleSettings settings = new ConsoleSettings(config(Map.of("toolgate.console.oidc.provider-uri", " https://id.example.com/realms/acme ")));
        assertTrue(settings.enabled());
        assertEquals("https://id.example.com/realms/acme", settings.getProviderUri());
    }

    @Test
    void hasDefaultsForEverythingElse() {
        ConsoleSettings settings = new ConsoleSettings(config(Map.of()));
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
        ConsoleSettings settings = new ConsoleSettings(config(Map.ofEntries(
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
                Map.entry("toolgate.console.secure-cookie", "false"))));
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
        assertFalse(new ConsoleSettings(config(Map.of("toolgate.console.groups.agent", "agents"))).roleGroups().containsKey(Role.AGENT));
    }

    @Test
    void linksATraceToTheConfiguredBackend() {
        ConsoleSettings settings = new ConsoleSettings(config(Map.of("toolgate.console.trace-url", "https://jaeger.example.com/trace/{trace_id}?x=1")));
        assertEquals(Optional.of("https://jaeger.example.com/trace/4bf92f3577b34da6a3ce929d0e0e4736?x=1"),
                settings.traceLink("4bf92f3577b34da6a3ce929d0e0e4736"));
        assertEquals(Optional.empty(), settings.traceLink(null), "an operation without a trace links nowhere");
    }

    @Test
    void ignoresATraceUrlWithoutThePlaceForTheTraceId() {
        // a URL that does not name the trace would link every operation to the same page
        ConsoleSettings settings = new ConsoleSettings(config(Map.of("toolgate.console.trace-url", "https://jaeger.example.com/search")));
        assertEquals(Optional.empty(), settings.traceLink("4bf92f3577b34da6a3ce929d0e0e4736"));
        assertEquals(Optional.empty(), new ConsoleSettings(config(Map.of("toolgate.console.trace-url", "https://x/{traceId}")))
                .traceLink("4bf92f3577b34da6a3ce929d0e0e4736"));
    }

    /**
     * A Config over a map, converting as MicroProfile Config's built-in converters do for the types the settings
     * read; an empty value is no value, as the specification says.
     */
    private static Config config(Map<String, String> values) {
        return new Config() {
            @Override
            public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
                String value = values.get(name);
                if (value == null || value.isEmpty()) {
                    return Optional.empty();
                }
                Object converted = type == Long.class ? Long.valueOf(value.strip())
                        : type == Boolean.class ? Boolean.valueOf(value.strip())
                        : type == String.class ? value : null;
                if (converted == null) {
                    throw new IllegalArgumentException("no converter for " + type);
                }
                return Optional.of(type.cast(converted));
            }

            @Override
            public <T> T getValue(String name, Class<T> type) {
                return getOptionalValue(name, type).orElseThrow(() -> new NoSuchElementException(name));
            }

            @Override
            public ConfigValue getConfigValue(String name) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Iterable<String> getPropertyNames() {
                return values.keySet();
            }

            @Override
            public Iterable<ConfigSource> getConfigSources() {
                return java.util.List.of();
            }

            @Override
            public <T> Optional<Converter<T>> getConverter(Class<T> type) {
                return Optional.empty();
            }

            @Override
            public <T> T unwrap(Class<T> type) {
                throw new IllegalArgumentException();
            }
        };
    }
}
