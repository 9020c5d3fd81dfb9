package dev.toolgate.canonical;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Writes a command as JSON text the way different clients might: members in any order, any
 * whitespace between tokens, any character escaped or not. Every spelling means the same document.
 */
final class Bodies {

    private static final String[] WHITESPACE = {"", "", " ", "\n", "\t", "\r\n  "};

    private Bodies() {
    }

    static Map<String, Object> invoice(String orderId) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("order_id", orderId);
        payload.put("amount_minor", 125_000L);
        payload.put("currency", "RUB");
        Map<String, Object> command = new LinkedHashMap<>();
        command.put("operation", "invoice.create");
        command.put("target", "1c");
        command.put("payload", payload);
        return command;
    }

    static String write(Object value, Random random) {
        return write(value, random, "");
    }

    /** {@code extra}, raw member text, is written first into the top object (so a caller can add a duplicate). */
    static String write(Object value, Random random, String extra) {
        StringBuilder out = new StringBuilder();
        append(out, value, random, extra);
        return out.toString();
    }

    private static void append(StringBuilder out, Object value, Random random, String extra) {
        if (value instanceof Map<?, ?> map) {
            List<Map.Entry<?, ?>> members = new ArrayList<>(map.entrySet());
            Collections.shuffle(members, random);
            out.append('{').append(space(random)).append(extra);
            for (int i = 0; i < members.size(); i++) {
                out.append(i > 0 || !extra.isEmpty() ? "," + space(random) : "");
                string(out, (String) members.get(i).getKey(), random);
                out.append(space(random)).append(':').append(space(random));
                append(out, members.get(i).getValue(), random, "");
            }
            out.append(space(random)).append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i > 0 ? "," : "").append(space(random));
                append(out, list.get(i), random, "");
            }
            out.append(']');
        } else if (value instanceof String s) {
            string(out, s, random);
        } else {
            out.append(value); // numbers and booleans
        }
    }

    private static void string(StringBuilder out, String s, Random random) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\' || c < 0x20 || random.nextInt(8) == 0) {
                out.append(String.format("\\u%04x", (int) c)); // a surrogate pair escapes as two, as RFC 8259 §7 says
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }

    private static String space(Random random) {
        return WHITESPACE[random.nextInt(WHITESPACE.length)];
    }
}
