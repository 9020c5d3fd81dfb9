package dev.toolgate.simulator;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * {@code application/x-www-form-urlencoded} in PHP's bracket form, the one Bitrix24 reads and writes:
 * {@code fields[TITLE]=…} is {@code {"fields":{"TITLE":"…"}}}. Values stay strings, as PHP sees them.
 */
final class Forms {

    private Forms() {
    }

    /** {@code name=value} pairs, in order, each encoded as a browser's form encoder does (brackets too). */
    static String encode(List<Map.Entry<String, String>> fields) {
        StringJoiner form = new StringJoiner("&");
        fields.forEach(f -> form.add(URLEncoder.encode(f.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(f.getValue(), StandardCharsets.UTF_8)));
        return form.toString();
    }

    /** The form as nested objects; a later value for one name replaces an earlier one. */
    static JsonObject parse(String form) {
        Map<String, Object> root = new LinkedHashMap<>();
        for (String pair : form.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            String[] kv = pair.split("=", 2);
            put(root, path(SimHttp.decode(kv[0])), kv.length > 1 ? SimHttp.decode(kv[1]) : "");
        }
        return json(root);
    }

    /** {@code a[b][c]} → {@code [a, b, c]}. */
    private static List<String> path(String name) {
        int open = name.indexOf('[');
        if (open <= 0 || !name.endsWith("]")) {
            return List.of(name);
        }
        List<String> path = new ArrayList<>(List.of(name.substring(0, open)));
        path.addAll(List.of(name.substring(open + 1, name.length() - 1).split("\\]\\[", -1)));
        return path;
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> node, List<String> path, String value) {
        for (String step : path.subList(0, path.size() - 1)) {
            Object next = node.get(step);
            if (!(next instanceof Map)) {
                next = new LinkedHashMap<String, Object>();
                node.put(step, next);
            }
            node = (Map<String, Object>) next;
        }
        node.put(path.get(path.size() - 1), value);
    }

    @SuppressWarnings("unchecked")
    private static JsonObject json(Map<String, Object> node) {
        JsonObjectBuilder object = Json.createObjectBuilder();
        node.forEach((name, value) -> {
            if (value instanceof Map) {
                object.add(name, json((Map<String, Object>) value));
            } else {
                object.add(name, (String) value);
            }
        });
        return object.build();
    }
}
