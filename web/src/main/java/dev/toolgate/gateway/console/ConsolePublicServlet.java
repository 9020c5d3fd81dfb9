package dev.toolgate.gateway.console;

import dev.toolgate.gateway.edge.ServletDoor;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/** What the console shows nobody in particular: the signed-out page (also after an expiry) and the stylesheet. */
public class ConsolePublicServlet extends ServletDoor {

    static final Set<String> PATHS = Set.of("/console/signed-out", ConsolePages.STYLE_PATH);

    public ConsolePublicServlet() {
        super("GET");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ConsolePages.secureHeaders(response);
        if (request.getServletPath().equals(ConsolePages.STYLE_PATH)) {
            response.setContentType("text/css;charset=UTF-8");
            response.setHeader("Cache-Control", "max-age=3600");
            response.getOutputStream().write(ConsolePages.STYLE.getBytes(StandardCharsets.UTF_8));
            return;
        }
        boolean expired = "expired".equals(request.getParameter("why"));
        Html body = new Html().raw("<p class=\"banner\" role=\"status\" id=\"signed-out\">")
                .text(expired ? "Your console session expired. Sign in again to go on." : "You are signed out of the console.")
                .raw("</p><p><a id=\"sign-in\" href=\"/console/\">Sign in</a></p>");
        ConsolePages.write(response, 200, ConsolePages.page(expired ? "Session expired" : "Signed out", null, null, null, body, 0));
    }
}
