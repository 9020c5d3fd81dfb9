package dev.toolgate.simulator;

import com.sun.net.httpserver.HttpExchange;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

final class SimHttp {

    private SimHttp() {
    }

    /**
     * The request path as the real system would see it: on the shared port each system is mounted
     * under {@code /<system>}; on its own origin it has the real system's paths.
     */
    static String path(HttpExchange exchange, String mount) {
        String path = exchange.getRequestURI().getPath();
        return path.startsWith(mount + "/") ? path.substring(mount.length()) : path;
    }

    static String body(HttpExchange exchange) throws IOException {
        return new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    }

    static void send(HttpExchange exchange, int status, JsonStructure json) throws IOException {
        send(exchange, status, json.toString(), "application/json;charset=utf-8");
    }

    static void send(HttpExchange exchange, int status, String body, String contentType) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> params = new LinkedHashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw == null) {
            return params;
        }
        for (String pair : raw.split("&")) {
            String[] kv = pair.split("=", 2);
            params.put(decode(kv[0]), kv.length > 1 ? decode(kv[1]) : "");
        }
        return params;
    }

    static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** The parsed object, or null when the text is not one JSON object. */
    static JsonObject object(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            return null;
        }
    }
}
