package dev.toolgate.gateway.console;

import dev.toolgate.access.Role;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The console's settings ({@code toolgate.console.*}, docs/console.md). Named {@code consoleOidc}: the OpenID Connect
 * annotation reads provider, client and prompt from here by EL, so the deployment says which provider is used.
 */
@Named("consoleOidc")
@ApplicationScoped
public class ConsoleSettings {

    private final Optional<String> providerUri;
    private final String clientId;
    private final String clientSecret;
    private final String prompt;
    private final String nameClaim;
    private final String tenantClaim;
    private final String groupsClaim;
    private final Map<Role, String> roleGroups = new EnumMap<>(Role.class);
    private final Duration idleTimeout;
    private final Duration maxSession;
    private final Optional<String> traceUrl;
    private final boolean secureCookie;

    public ConsoleSettings() {
        this(ConfigProvider.getConfig());
    }

    ConsoleSettings(Config config) {
        providerUri = config.getOptionalValue("toolgate.console.oidc.provider-uri", String.class).map(String::strip)
                .filter(uri -> !uri.isEmpty());
        clientId = config.getOptionalValue("toolgate.console.oidc.client-id", String.class).orElse("toolgate-console");
        clientSecret = config.getOptionalValue("toolgate.console.oidc.client-secret", String.class).orElse("");
        // "login": every console session begins with the person proving who they are, not with an IdP session left open
        prompt = config.getOptionalValue("toolgate.console.oidc.prompt", String.class).orElse("login").strip();
        nameClaim = config.getOptionalValue("toolgate.console.claims.name", String.class).orElse("preferred_username");
        tenantClaim = config.getOptionalValue("toolgate.console.claims.tenant", String.class).orElse("tenant");
        groupsClaim = config.getOptionalValue("toolgate.console.claims.groups", String.class).orElse("groups");
        for (Role role : ConsoleAccess.PEOPLE_ROLES) {
            roleGroups.put(role, config.getOptionalValue("toolgate.console.groups." + role.dbName(), String.class)
                    .orElse(role.dbName() + "s"));
        }
        idleTimeout = Duration.ofSeconds(config.getOptionalValue("toolgate.console.idle-timeout-seconds", Long.class).orElse(900L));
        maxSession = Duration.ofSeconds(config.getOptionalValue("toolgate.console.max-session-seconds", Long.class).orElse(28_800L));
        traceUrl = config.getOptionalValue("toolgate.console.trace-url", String.class).filter(url -> url.contains("{trace_id}"));
        secureCookie = config.getOptionalValue("toolgate.console.secure-cookie", Boolean.class).orElse(true);
    }

    public boolean enabled() {
        return providerUri.isPresent();
    }

    // --- read by the mechanism's EL: ${consoleOidc.providerUri} and so on

    public String getProviderUri() {
        return providerUri.orElse("");
    }

    public String getClientId() {
        return clientId;
    }

    public String getClientSecret() {
        return clientSecret;
    }

    public String getPrompt() {
        return prompt;
    }

    // --- read by the console

    String nameClaim() {
        return nameClaim;
    }

    String tenantClaim() {
        return tenantClaim;
    }

    String groupsClaim() {
        return groupsClaim;
    }

    Map<Role, String> roleGroups() {
        return roleGroups;
    }

    Duration idleTimeout() {
        return idleTimeout;
    }

    Duration maxSession() {
        return maxSession;
    }

    Optional<String> traceLink(String traceId) {
        return traceId == null ? Optional.empty() : traceUrl.map(url -> url.replace("{trace_id}", traceId));
    }

    boolean secureCookie() {
        return secureCookie;
    }
}
