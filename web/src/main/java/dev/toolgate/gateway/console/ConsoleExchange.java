package dev.toolgate.gateway.console;

import dev.toolgate.gateway.edge.Inputs;
import dev.toolgate.search.Cursor;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import java.io.IOException;
import java.time.Instant;

/**
 * One console request as a page or action sees it: the person, the session's CSRF token, the form's fields held to
 * the edge's rules, and the ways to answer.
 */
final class ConsoleExchange {

    static final int PAGE = 50;
    private static final String FLASH = "toolgate.console.flash";

    private final HttpServletRequest request;
    private final HttpServletResponse response;
    private final ConsoleUser user;
    private final String csrf;
    private final Instant now = Instant.now();

    ConsoleExchange(HttpServletRequest request, HttpServletResponse response, ConsoleUser user, String csrf) {
        this.request = request;
        this.response = response;
        this.user = user;
        this.csrf = csrf;
    }

    ConsoleUser user() {
        return user;
    }

    String csrf() {
        return csrf;
    }

    /** The one moment a page is drawn at: what is due, expired or past is judged against it. */
    Instant now() {
        return now;
    }

    HttpServletRequest request() {
        return request;
    }

    HttpServletResponse response() {
        return response;
    }

    String parameter(String name) {
        return request.getParameter(name);
    }

    Cursor cursor() {
        String token = request.getParameter("after");
        if (token == null || token.isEmpty()) {
            return null;
        }
        return Cursor.parse(token).orElseThrow(() -> new Refusal(400, "That page link is not one this console made."));
    }

    /** Stripped, held to the edge's rules for prose; null when empty and not required. */
    String text(String name, int max, boolean required) {
        String value = request.getParameter(name);
        value = value == null ? null : value.strip();
        if (value == null || value.isEmpty()) {
            if (required) {
                throw new Refusal(400, "The form lacks " + name.replace('_', ' ') + ".");
            }
            return null;
        }
        return Inputs.text(name.replace('_', ' '), value, Inputs.Text.PROSE, max);
    }

    String key() {
        String value = request.getParameter("key");
        value = value == null ? null : value.strip();
        if (value == null || value.isEmpty()) {
            throw new Refusal(400, "The form lacks key.");
        }
        return Inputs.key("operation's key", value);
    }

    void flash(String text) {
        request.getSession().setAttribute(FLASH, text);
    }

    /** The notice an action left, taken: shown once. */
    String flash() {
        HttpSession session = request.getSession();
        String text = (String) session.getAttribute(FLASH);
        session.removeAttribute(FLASH);
        return text;
    }

    void redirect(String path) throws IOException {
        response.sendRedirect(request.getContextPath() + path);
    }

    /** After a state change: 303, so a reload of the page that follows sends nothing again. */
    void seeOther(String path) {
        response.setStatus(303);
        response.setHeader("Location", request.getContextPath() + path);
    }

    void show(String title, ConsoleAccess current, Html body) throws IOException {
        show(title, current, body, 0, 200);
    }

    void show(String title, ConsoleAccess current, Html body, int refreshSeconds, int status) throws IOException {
        ConsolePages.write(response, status, ConsolePages.page(title, user, csrf, current, body, refreshSeconds));
    }
}
