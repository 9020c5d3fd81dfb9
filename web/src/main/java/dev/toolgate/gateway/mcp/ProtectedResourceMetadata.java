package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.gateway.edge.ServletDoor;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * RFC 9728 protected-resource metadata of {@code /mcp}, where the 401's {@code resource_metadata} points: which
 * authorization servers issue tokens for it (none by default: the admin API issues them). Public.
 */
@WebServlet(urlPatterns = {McpEndpoint.METADATA, "/.well-known/oauth-protected-resource"})
public class ProtectedResourceMetadata extends ServletDoor {

    @Inject
    McpSettings settings;

    public ProtectedResourceMetadata() {
        super("GET");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String base = McpEndpoint.base(request);
        McpEndpoint.send(response, 200, JSON.createObjectBuilder()
                .add("resource", base + McpEndpoint.PATH)
                .add("authorization_servers", JSON.createArrayBuilder(settings.authorizationServers()))
                .add("bearer_methods_supported", JSON.createArrayBuilder().add("header"))
                .add("resource_name", "Toolgate MCP endpoint")
                .build());
    }
}
