package dev.toolgate.gateway.console;

import dev.toolgate.gateway.edge.ServletDoor;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * {@code /console/*} on a gateway with no identity provider configured: 503, and what to configure, to what the console
 * would serve (a page, a form); any other method is 405 as on a configured console.
 */
public class ConsoleUnconfiguredServlet extends ServletDoor {

    public ConsoleUnconfiguredServlet() {
        super("GET", "POST");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ConsolePages.secureHeaders(response);
        Html body = new Html().raw("<p class=\"refused\" role=\"alert\">People sign in to the console through OpenID Connect, and this ")
                .raw("gateway has no identity provider configured. Set <code>toolgate.console.oidc.provider-uri</code>, ")
                .raw("<code>toolgate.console.oidc.client-id</code> and <code>toolgate.console.oidc.client-secret</code> ")
                .raw("(docs/console.md) and restart.</p>");
        ConsolePages.write(response, 503, ConsolePages.page("The console is not configured", null, null, null, body, 0));
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        doGet(request, response);
    }
}
