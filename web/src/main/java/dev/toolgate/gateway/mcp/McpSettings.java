package dev.toolgate.gateway.mcp;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The MCP endpoint's settings (docs/mcp.md). */
@ApplicationScoped
public class McpSettings {

    private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");

    /**
     * Browser origins allowed to call {@code /mcp}, comma-separated. Empty: none — agents and their hosts send
     * no Origin, and a page on another site must not reach a gateway on a private network (DNS rebinding).
     */
    @Inject
    @ConfigProperty(name = "toolgate.mcp.allowed-origins")
    Optional<String> allowedOrigins;

    /**
     * Also allow any {@code http(s)://localhost}, {@code 127.0.0.1} or {@code [::1]} origin, on any port: for browser MCP
     * tools on a developer's machine (the local run sets it). A rebinding page's Origin is its own name, not localhost.
     */
    @Inject
    @ConfigProperty(name = "toolgate.mcp.allow-localhost-origins", defaultValue = "false")
    boolean allowLocalhostOrigins;

    /** OAuth authorization servers published in the protected-resource metadata (RFC 9728), comma-separated. */
    @Inject
    @ConfigProperty(name = "toolgate.mcp.authorization-servers")
    Optional<String> authorizationServers;

    /** The same limit as the REST API's: a tool call is a few hundred bytes. */
    @Inject
    @ConfigProperty(name = "toolgate.max-body-bytes", defaultValue = "65536")
    long maxBodyBytes;

    /** Absent is fine (no browser sent it); present, it must be one of the configured origins exactly. */
    boolean allows(String origin) {
        return origin == null || list(allowedOrigins).contains(origin) || allowLocalhostOrigins && isLocalhost(origin);
    }

    /** An origin ({@code scheme://host[:port]}, nothing more) whose host is the loopback by name or address. */
    static boolean isLocalhost(String origin) {
        try {
            URI uri = new URI(origin);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getRawUserInfo() == null
                    && (uri.getRawPath() == null || uri.getRawPath().isEmpty()) && uri.getRawQuery() == null && uri.getRawFragment() == null
                    && LOOPBACK.contains(uri.getHost());
        } catch (URISyntaxException e) {
            return false;
        }
    }

    List<String> authorizationServers() {
        return list(authorizationServers);
    }

    long maxBodyBytes() {
        return maxBodyBytes;
    }

    private static List<String> list(Optional<String> value) {
        return value.map(v -> Arrays.stream(v.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList()).orElse(List.of());
    }
}
