package dev.toolgate.gateway.edge;

import jakarta.servlet.http.HttpServletRequest;

import java.io.IOException;
import java.io.InputStream;

/** What every servlet-served door reads of a request the same way: its body within a limit, the deployment's base. */
public final class Requests {

    private Requests() {
    }

    /** The body, or null when it is longer than {@code limit} (read no further than that, whatever Content-Length says). */
    public static byte[] bodyWithin(InputStream in, long limit) throws IOException {
        byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
        return body.length > limit ? null : body;
    }

    /** The deployment's absolute base ({@code http://host:port} plus the context root), from the request's own URL. */
    public static String base(HttpServletRequest request) {
        String url = request.getRequestURL().toString();
        return url.substring(0, url.length() - request.getRequestURI().length()) + request.getContextPath();
    }
}
