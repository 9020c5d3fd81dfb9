package dev.toolgate.gateway.edge;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A door served by a servlet: it names the methods it serves, and every other is answered 405 with {@code Allow}, in
 * the door's own form ({@link InputEdge.Door}). Servlet 6.0's {@link HttpServlet} answers a method it has no
 * {@code doX} for (PATCH, PROPFIND) with 501, one it has but a servlet does not override with 405 and no
 * {@code Allow}, and TRACE by echoing the request, headers included; RFC 9110 wants 405 with {@code Allow} for all
 * three. {@code HEAD} comes with {@code GET}, {@code OPTIONS} with every door.
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
}
