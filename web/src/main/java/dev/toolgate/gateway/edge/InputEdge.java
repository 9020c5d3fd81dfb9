package dev.toolgate.gateway.edge;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.gateway.edge.Inputs.Text;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The first thing every request meets: path, query, headers and form fields pass {@link Inputs} before any door's
 * code runs, so no door can take, log or store a value no door would take. A refusal is logged by where it was,
 * never by the value. Rules that depend on meaning (a JSON body's members) are each door's.
 */
public class InputEdge implements Filter {

    private static final Logger LOG = Logger.getLogger(InputEdge.class.getName());
    /** Secrets, never logged or traced anywhere, and opaque to us: their own checks are the authentication's. */
    private static final Set<String> OPAQUE_HEADERS = Set.of("authorization", "cookie");
    /** Headers a door reads: a card number in one is refused. Others only meet the text rules: 16 digits pass Luhn one time in ten. */
    private static final Set<String> READ_HEADERS = Set.of("idempotency-key", "traceparent", "tracestate", "origin", "host",
            "referer", "sec-fetch-site", "mcp-protocol-version", "user-agent", "content-type", "accept");

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = StatusLines.phrased((HttpServletResponse) res);
        String path = request.getRequestURI().substring(request.getContextPath().length());
        Door door = Door.of(request);
        try {
            check(request, path, door);
        } catch (InputRefused refused) {
            LOG.info(() -> "edge: refused a request to the " + door.name().toLowerCase(Locale.ROOT) + " door: " + refused.getMessage());
            door.refuse(response, refused);
            return;
        }
        try {
            chain.doFilter(req, response);
        } catch (IOException | ServletException | RuntimeException | Error e) {
            if (response instanceof StatusLines.Phrased phrased) {
                phrased.forget(); // the server's error page sets its status where the phrase cannot follow
            }
            throw e;
        }
    }

    static void check(HttpServletRequest request, String path, Door door) {
        Inputs.text("the method", request.getMethod(), Text.LINE, 16);
        Inputs.text("the path", decode(path, "the path", false), Text.LINE, Inputs.MAX_VALUE);
        String query = request.getQueryString();
        if (query != null) {
            // the raw query's length and characters only: each parameter is checked for what it carries once decoded
            Inputs.characters("the query", query, Text.LINE, Inputs.MAX_VALUE);
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq), "a query parameter's name", true);
                Inputs.text("a query parameter's name", name, Text.LINE, 64);
                Inputs.text("query parameter '" + name + "'", eq < 0 ? "" : decode(pair.substring(eq + 1), "query parameter '" + name + "'", true),
                        Text.LINE, Inputs.MAX_VALUE);
            }
        }
        for (Enumeration<String> names = request.getHeaderNames(); names != null && names.hasMoreElements(); ) {
            String name = names.nextElement();
            if (OPAQUE_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            boolean read = READ_HEADERS.contains(name.toLowerCase(Locale.ROOT));
            // a header no door reads is not named: its name is the sender's text (one was a card number), not ours
            String where = read ? "header " + name : "a header no door reads";
            for (Enumeration<String> values = request.getHeaders(name); values.hasMoreElements(); ) {
                String value = values.nextElement();
                if (read) {
                    Inputs.text(where, value, Text.LINE, Inputs.MAX_VALUE);
                } else {
                    Inputs.characters(where, value, Text.LINE, Inputs.MAX_VALUE);
                }
            }
        }
        // the console's forms only; a target's form notification is read by its door, within its limit, with form():
        // the container's parser reads up to 2 MB and logs what it cannot decode, value and all, and every empty field
        if (door == Door.CONSOLE && "POST".equals(request.getMethod()) && isForm(request.getContentType())) {
            if (request.getCharacterEncoding() == null) {
                // a form without a charset is read as ISO-8859-1, where non-UTF-8 bytes would pass unseen
                try {
                    request.setCharacterEncoding("UTF-8");
                } catch (java.io.UnsupportedEncodingException e) {
                    throw new IllegalStateException(e);
                }
            }
            for (Map.Entry<String, String[]> field : request.getParameterMap().entrySet()) {
                Inputs.text("a form field's name", field.getKey(), Text.LINE, 64);
                for (String value : field.getValue()) {
                    if (value.indexOf('\uFFFD') >= 0) { // the container decoded the form already: this is what it made of bytes that are not UTF-8
                        throw new InputRefused(InputRefused.Kind.INVALID, "form field '" + field.getKey() + "'", "is not UTF-8");
                    }
                    Inputs.text("form field '" + field.getKey() + "'", value, Text.PROSE, Inputs.MAX_VALUE);
                }
            }
        }
    }

    /**
     * A door's form-encoded body, decoded strictly (non-UTF-8 bytes and malformed escapes refused, never replaced), each
     * field held to the console's form rules; as {@link HttpServletRequest#getParameterMap()}, without the query.
     */
    public static Map<String, String[]> form(byte[] body) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw new InputRefused(InputRefused.Kind.INVALID, "the form", "is not UTF-8");
        }
        Map<String, List<String>> fields = new LinkedHashMap<>();
        for (String pair : text.split("&")) {
            if (pair.isEmpty()) {
                continue; // "a=1&&b=2": nothing between
            }
            int eq = pair.indexOf('=');
            String name = Inputs.text("a form field's name", decode(eq < 0 ? pair : pair.substring(0, eq), "a form field's name", true),
                    Text.LINE, 64);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), "form field '" + name + "'", true);
            fields.computeIfAbsent(name, n -> new ArrayList<>()).add(Inputs.text("form field '" + name + "'", value, Text.PROSE, Inputs.MAX_VALUE));
        }
        Map<String, String[]> form = new LinkedHashMap<>();
        fields.forEach((name, values) -> form.put(name, values.toArray(String[]::new)));
        return form;
    }

    private static boolean isForm(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded");
    }

    /** Strict UTF-8: malformed escapes are refused, not replaced with U+FFFD, so what is checked is what a door reads. */
    static String decode(String raw, String where, boolean plus) {
        if (raw.indexOf('%') < 0) {
            return plus ? raw.replace('+', ' ') : raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = hi < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
                if (lo < 0) {
                    throw new InputRefused(InputRefused.Kind.INVALID, where, "holds a malformed percent-escape");
                }
                bytes.write(hi * 16 + lo);
                i += 2;
            } else {
                byte[] utf8 = String.valueOf(plus && c == '+' ? ' ' : c).getBytes(StandardCharsets.UTF_8);
                bytes.write(utf8, 0, utf8.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw new InputRefused(InputRefused.Kind.INVALID, where, "is not UTF-8");
        }
    }

    enum Door {
        API,
        MCP,
        CONSOLE;

        /** By the normalised servlet path, never the URI as sent: a refusal in another door's form is one its client cannot read. */
        static Door of(HttpServletRequest request) {
            return of(routedPath(request));
        }

        static String routedPath(HttpServletRequest request) {
            String pathInfo = request.getPathInfo();
            return request.getServletPath() + (pathInfo == null ? "" : pathInfo);
        }

        static Door of(String path) {
            if (path.equals("/mcp") || path.startsWith("/mcp/")) {
                return MCP;
            }
            if (path.equals("/console") || path.startsWith("/console/")) {
                return CONSOLE;
            }
            return API;
        }

        void refuse(HttpServletResponse response, InputRefused refused) throws IOException {
            answer(response, refused.kind() == InputRefused.Kind.CARD_NUMBER ? ProblemType.CARD_NUMBER_REJECTED : ProblemType.INVALID_REQUEST,
                    refused.getMessage());
        }

        void notAllowed(HttpServletResponse response, String allow) throws IOException {
            response.setHeader("Allow", allow);
            answer(response, ProblemType.METHOD_NOT_ALLOWED, "this method is not served here; Allow lists the methods that are");
        }

        /** 503 with {@code Retry-After} for a call to a stopping instance ({@link Stopping}). */
        void stopping(HttpServletResponse response) throws IOException {
            response.setHeader("Retry-After", "1"); // another instance, or this one once back, takes it at once
            String detail = "this instance is stopping and did nothing with the call; retry with the same key after Retry-After";
            if (this == MCP) {
                write(response, 503, "application/json", JSON.createObjectBuilder().add("jsonrpc", "2.0").addNull("id")
                        .add("error", JSON.createObjectBuilder().add("code", -32000).add("message", detail)
                                .add("data", JSON.createObjectBuilder().add("type", ProblemType.GATEWAY_STOPPING.uri())
                                        .add("retry_after_seconds", 1))).build().toString());
                return;
            }
            answer(response, ProblemType.GATEWAY_STOPPING, detail);
        }

        private void answer(HttpServletResponse response, ProblemType type, String detail) throws IOException {
            switch (this) {
                case API -> ServletDoor.problem(response, type, detail);
                case MCP -> write(response, type.status(), "application/json", JSON.createObjectBuilder().add("jsonrpc", "2.0")
                        .addNull("id").add("error", JSON.createObjectBuilder().add("code", -32600).add("message", detail))
                        .build().toString());
                case CONSOLE -> write(response, type.status(), "text/html;charset=UTF-8", "<!doctype html><html lang=\"en\"><head>"
                        + "<meta charset=\"utf-8\"><title>Refused</title></head><body><main><h1>Refused</h1><p role=\"alert\">"
                        + escape(detail) + "; nothing was done.</p><p><a href=\"/console/\">Back to the console</a></p>"
                        + "</main></body></html>");
            }
        }

        private static void write(HttpServletResponse response, int status, String type, String body) throws IOException {
            ServletDoor.write(response, status, type, body);
        }

        private static String escape(String text) {
            return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
        }
    }
}
