package dev.toolgate.gateway.edge;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.platform.ServerPort;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * An instance told to stop (SIGTERM: the JVM runs its shutdown hooks) refuses new calls at once — 503 with
 * {@code Retry-After}, in the door's own form — and says so in its readiness, while the calls it is serving finish
 * within the server's shutdown grace; then, where the server allows it, it closes the HTTP port ({@link ServerPort}),
 * so nothing arrives while the server tears the application down. Without this, a call that arrives while the server tears the application down
 * is answered by the server itself, 500 or an HTML 503 (seen by RecoveryIT's checker). An agent told
 * {@code gateway-stopping} retries the same key, here or at another instance; nothing of the call was done.
 */
public final class Stopping implements Filter {

    private static final Logger LOG = Logger.getLogger(Stopping.class.getName());
    /** Left for the server's own stop after the port is closed: its grace is a plain sleep, the port must close before it ends. */
    private static final long MARGIN_MILLIS = 300;
    private static final AtomicInteger SERVING = new AtomicInteger();
    private static volatile boolean underway;
    private static volatile Optional<ServerPort> port = Optional.empty();

    /** At start: the server's port, if this server lets the application close it ({@link ServerPort}). */
    static void prepare(Optional<ServerPort> serverPort) {
        port = serverPort;
        LOG.info(() -> serverPort.isPresent()
                ? "an orderly stop refuses new calls, lets those being served finish within " + ServerPort.graceMillis()
                        + " ms, then closes the HTTP port before the server stops the application"
                : "an orderly stop refuses new calls; the server's own graceful shutdown closes its port");
    }

    /**
     * Called by the JVM's shutdown hook ({@link EdgeRegistration}), beside the server's own: new calls are refused from
     * now on; once those being served have finished, or the server's grace is nearly over, the port is closed.
     */
    static void begin() {
        underway = true;
        long deadline = System.currentTimeMillis() + ServerPort.graceMillis() - MARGIN_MILLIS;
        while (SERVING.get() > 0 && System.currentTimeMillis() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        port.ifPresent(ServerPort::close);
    }

    /** Back to serving: only a test in this package has reason to. */
    static void cancel() {
        underway = false;
    }

    /** The path as the container routes it (normalised), as the doors are told apart ({@link InputEdge.Door#of}). */
    private static String routedPath(HttpServletRequest request) {
        String pathInfo = request.getPathInfo();
        return request.getServletPath() + (pathInfo == null ? "" : pathInfo);
    }

    /** Whether this instance is stopping: readiness answers DOWN. */
    public static boolean underway() {
        return underway;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        if (!underway || routedPath(request).startsWith("/api/health/")) {
            SERVING.incrementAndGet();
            try {
                chain.doFilter(req, res);
            } finally {
                SERVING.decrementAndGet();
            }
            return;
        }
        HttpServletResponse response = StatusLines.phrased((HttpServletResponse) res);
        String body;
        String type;
        if (InputEdge.Door.of(request) == InputEdge.Door.MCP) {
            type = "application/json";
            body = JSON.createObjectBuilder().add("jsonrpc", "2.0").addNull("id").add("error", JSON.createObjectBuilder()
                    .add("code", -32603).add("message", "this instance is stopping; retry after Retry-After")).build().toString();
        } else {
            type = "application/problem+json";
            body = JSON.createObjectBuilder().add("type", ProblemType.GATEWAY_STOPPING.uri()).add("title", ProblemType.GATEWAY_STOPPING.title())
                    .add("status", 503).build().toString();
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(503);
        response.setHeader("Retry-After", "1"); // another instance, or this one's successor, may take it at once
        response.setContentType(type);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
