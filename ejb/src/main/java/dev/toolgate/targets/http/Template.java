package dev.toolgate.targets.http;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.targets.Attempt;
import jakarta.json.JsonValue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request template with {@code {{name}}} placeholders ({@code ${…}} would be expanded by MicroProfile Config first).
 * Values are URL-encoded in a URL and JSON literals in a body, so a value can never break the body or inject a field.
 */
public final class Template {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z_]+(?:\\.[A-Za-z0-9_]+)?)}}");

    private final String text;

    public Template(String text) {
        this.text = text;
        PLACEHOLDER.matcher(text).results().forEach(m -> {
            String name = m.group(1);
            if (!name.startsWith("payload.") && !name.equals("key") && !name.equals("operation")
                    && !name.equals("attempt") && !name.equals("trace_id")) {
                throw new IllegalArgumentException("unknown placeholder {{" + name + "}} in " + text);
            }
        });
    }

    public String url(Attempt dispatch) {
        return render(dispatch, v -> URLEncoder.encode(v instanceof jakarta.json.JsonString s ? s.getString() : v.toString(),
                StandardCharsets.UTF_8).replace("+", "%20"));
    }

    public String json(Attempt dispatch) {
        return render(dispatch, JsonValue::toString);
    }

    private String render(Attempt dispatch, Function<JsonValue, String> encode) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(encode.apply(value(dispatch, m.group(1)))));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static JsonValue value(Attempt dispatch, String name) {
        return switch (name) {
            case "key" -> JSON.createValue(dispatch.downstreamKey());
            case "operation" -> JSON.createValue(dispatch.operation());
            case "attempt" -> JSON.createValue(dispatch.attempt());
            case "trace_id" -> dispatch.traceId() == null ? JsonValue.NULL : JSON.createValue(dispatch.traceId());
            default -> {
                JsonValue value = dispatch.payload().get(name.substring("payload.".length()));
                yield value == null ? JsonValue.NULL : value;
            }
        };
    }
}
