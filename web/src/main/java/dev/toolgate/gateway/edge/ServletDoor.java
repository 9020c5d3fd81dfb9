package dev.toolgate.gateway.edge;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A door served by a servlet: every method it does not name is answered 405 with {@code Allow} (RFC 9110) in the
 * door's form, where {@link HttpServlet} would answer 501, 405 without {@code Allow}, or echo a TRACE's headers.
 */
public abstract class ServletDoor extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final Set<String> served;
    private final String allow;

    protected ServletDoor(String... methods) {
        Set<String> all = new LinkedHashSet<>();
        for (String method : methods) {
            all.add(method);
            if ("GET".equals(method)) {
                all.add("HEAD");
            }
        }
        all.add("OPTIONS");
        served = Set.copyOf(all);
        allow = String.join(", ", all);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (!served.contains(request.getMethod())) {
            InputEdge.Door.of(request).notAllowed(response, allow);
            return;
        }
        super.service(request, response);
    }

    /** What this door serves; {@link HttpServlet}'s own would list every {@code doX} found, TRACE included. */
    @Override
    protected void doOptions(HttpServletRequest request, HttpServletResponse response) {
        response.setHeader("Allow", allow);
    }

    protected static void problem(HttpServletResponse response, ProblemType type, String detail) throws IOException {
        write(response, type.status(), "application/problem+json", dev.toolgate.canonical.Jsons.JSON.createObjectBuilder()
                .add("type", type.uri()).add("title", type.title()).add("status", type.status()).add("detail", detail).build().toString());
    }

    /** {@code body} as the whole answer, never cached: what every door's own answer and refusal is written with. */
    protected static void write(HttpServletResponse response, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(type);
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
