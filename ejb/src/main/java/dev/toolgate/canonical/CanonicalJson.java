package dev.toolgate.canonical;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Serializes JSON deterministically: object keys sorted by UTF-16 code units, no whitespace,
 * strings escaped as RFC 8785 (JCS) does. Hand-written because JSON-P providers keep
 * insertion order and differ in escaping; the fingerprint must not depend on the provider.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    public static String write(JsonValue value) {
        StringBuilder out = new StringBuilder(128);
        append(out, value);
        return out.toString();
    }

    private static void append(StringBuilder out, JsonValue value) {
        switch (value.getValueType()) {
            case OBJECT -> appendObject(out, value.asJsonObject());
            case ARRAY -> appendArray(out, value.asJsonArray());
            case STRING -> appendString(out, ((JsonString) value).getString());
            case NUMBER -> out.append(((JsonNumber) value).bigDecimalValue().toString());
            case TRUE -> out.append("true");
            case FALSE -> out.append("false");
            case NULL -> out.append("null");
        }
    }

    private static void appendObject(StringBuilder out, JsonObject object) {
        List<String> keys = new ArrayList<>(object.keySet());
        keys.sort(null); // String.compareTo orders by UTF-16 code units, as JCS requires
        out.append('{');
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            appendString(out, keys.get(i));
            out.append(':');
            append(out, object.get(keys.get(i)));
        }
        out.append('}');
    }

    private static void appendArray(StringBuilder out, JsonArray array) {
        out.append('[');
        for (int i = 0; i < array.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            append(out, array.get(i));
        }
        out.append(']');
    }

    static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
