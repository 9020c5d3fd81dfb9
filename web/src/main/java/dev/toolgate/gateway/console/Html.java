package dev.toolgate.gateway.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The console's HTML, by hand: every outside value goes through {@link #text} and every URL value through
 * {@link #query}, so nothing an agent put in a payload can become markup.
 */
final class Html {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private final StringBuilder out = new StringBuilder(4096);

    /** Markup written by this code (never a value from outside). */
    Html raw(String markup) {
        out.append(markup);
        return this;
    }

    /** A value from outside, escaped for element content and attribute values alike. */
    Html text(Object value) {
        out.append(escape(value == null ? "" : value.toString()));
        return this;
    }

    Html element(String tag, Object value) {
        return raw("<" + tag + ">").text(value).raw("</" + tag.split(" ")[0] + ">");
    }

    /** A link to {@code href} (built by this code, its parameters through {@link #query}). */
    Html link(String href, Object label) {
        return raw("<a href=\"").text(href).raw("\">").text(label).raw("</a>");
    }

    Html hidden(String name, String value) {
        return raw("<input type=\"hidden\" name=\"").text(name).raw("\" value=\"").text(value).raw("\">");
    }

    /** A {@code <time>} element: readable for people, exact for machines. */
    Html time(Instant at) {
        if (at == null) {
            return raw("—");
        }
        return raw("<time datetime=\"").text(at.toString()).raw("\">").text(WHEN.format(at)).raw("</time>");
    }

    Html timeIfAny(Instant at) {
        return at == null ? this : time(at);
    }

    /** "3 min", "2 h 5 min", "4 d 1 h": how long something has waited. */
    static String age(Instant since, Instant now) {
        if (since == null) {
            return "—";
        }
        long seconds = Math.max(0, Duration.between(since, now).getSeconds());
        if (seconds < 60) {
            return seconds + " s";
        }
        long minutes = seconds / 60;
        if (minutes < 60) {
            return minutes + " min";
        }
        long hours = minutes / 60;
        if (hours < 48) {
            return hours + " h " + minutes % 60 + " min";
        }
        return hours / 24 + " d " + hours % 24 + " h";
    }

    static String escape(String value) {
        StringBuilder escaped = new StringBuilder(value.length() + 16);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '&' -> escaped.append("&amp;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }

    static String query(String value) {
        return URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
