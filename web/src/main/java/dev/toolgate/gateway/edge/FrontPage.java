package dev.toolgate.gateway.edge;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code /}: what is served here and where, for whoever opens the gateway's address in a browser — the API and its
 * description, MCP, the console, health and metrics. Static: it names no tenant, key or setting.
 */
@WebServlet(name = "front-page", urlPatterns = "")
public class FrontPage extends ServletDoor {

    static final String PAGE = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Toolgate</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
            <h1>Toolgate</h1>
            <p>An idempotent tool gateway for AI agents that act on business systems: one key, at most one business effect.</p>
            <ul id="doors">
            <li><a href="{base}/api/v1/operations">/api/v1/operations</a>: the HTTP API for agents (a bearer token;
              <code>Idempotency-Key</code> on every call); described in <a href="{base}/api/openapi.yaml">/api/openapi.yaml</a></li>
            <li><code>/mcp</code>: the same tools over the Model Context Protocol (streamable HTTP, POST)</li>
            <li><a href="{base}/console/">/console/</a>: the console for people — approvals, escalations, search, reconcile runs
              (signing in through the identity provider)</li>
            <li><a href="{base}/api/health/ready">/api/health/ready</a> and <a href="{base}/api/health/live">/api/health/live</a>: probes;
              <code>/api/metrics</code>: Prometheus metrics (an operator's token)</li>
            </ul></body></html>
            """;

    public FrontPage() {
        super("GET");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        byte[] page = PAGE.replace("{base}", request.getContextPath()).getBytes(StandardCharsets.UTF_8); // a context path is ours: no markup
        response.setStatus(200);
        response.setContentType("text/html;charset=UTF-8");
        response.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Cache-Control", "no-cache");
        response.setContentLength(page.length);
        response.getOutputStream().write(page);
    }
}
