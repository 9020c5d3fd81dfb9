package dev.toolgate.gateway.edge;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * An instance told to stop (SIGTERM) refuses every new call at once with 503 and {@code Retry-After}, and says so in
 * readiness, while calls in flight finish; a server tearing down would answer a 500 or an HTML 503. Nothing of a
 * refused call was done: the agent retries the same key.
 */
public final class Stopping implements Filter {

    private static volatile boolean underway;

    /** Called by the JVM's shutdown hook ({@link EdgeRegistration}); logging may already be shut down, so it logs nothing. */
    static void begin() {
        underway = true;
    }

    static void cancel() {
        underway = false;
    }

    public static boolean underway() {
        return underway;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        if (!underway || InputEdge.Door.routedPath(request).startsWith("/api/health/")) {
            chain.doFilter(req, res);
            return;
        }
        InputEdge.Door.of(request).stopping(StatusLines.phrased((HttpServletResponse) res));
    }
}
