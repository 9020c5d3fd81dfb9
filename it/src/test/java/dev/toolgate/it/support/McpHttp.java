package dev.toolgate.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** {@code /mcp} over plain HTTP, for what no MCP client library would send: the bad-input table, the HTTP edge. */
public final class McpHttp {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final String token;

    public McpHttp(String baseUrl, String principal) {
        this(principal, baseUrl, Credentials.token(baseUrl, principal));
    }

    private McpHttp(String principal, String baseUrl, String token) {
        this.baseUrl = baseUrl;
        this.token = token;
    }

    /** As a principal holding {@code token} (the bootstrap admin's, which has no name to issue it by). */
    public static McpHttp withToken(String baseUrl, String token) {
        return new McpHttp(null, baseUrl, token);
    }

    /** A POST as the MCP transport sends one, with the token. */
    public HttpRequest.Builder post(byte[] body) {
        return HttpRequest.newBuilder(URI.create(baseUrl + "/mcp")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    }

    public HttpRequest.Builder post(String body) {
        return post(body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30));
    }

    public static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static JsonObject json(HttpResponse<String> response) {
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    /** A {@code tools/call} request of one JSON-RPC message. */
    public static String toolCall(int id, String tool, JsonObject arguments) {
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", tool).add("arguments", arguments)).build().toString();
    }

    /**
     * A 2026-07-28 request as a conforming client sends it: the envelope in {@code params._meta} and the mirrored
     * headers ({@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name} when given, a tool call's key as
     * {@code Mcp-Param-Idempotency-Key}); {@code capabilities} are the client's per-request capabilities.
     */
    public HttpRequest.Builder modern(Object id, String method, JsonObject params, JsonObject capabilities) {
        JsonObject meta = Json.createObjectBuilder().add("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .add("io.modelcontextprotocol/clientInfo", Json.createObjectBuilder().add("name", "raw").add("version", "0"))
                .add("io.modelcontextprotocol/clientCapabilities", capabilities).build();
        JsonObject body = Json.createObjectBuilder().add("jsonrpc", "2.0")
                .add("id", id instanceof Integer n ? Json.createValue(n) : Json.createValue(id.toString())).add("method", method)
                .add("params", Json.createObjectBuilder(params).add("_meta", meta)).build();
        HttpRequest.Builder request = post(body.toString()).header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method);
        String name = params.containsKey("name") ? params.getString("name") : params.containsKey("taskId") ? params.getString("taskId") : null;
        if (name != null) {
            request.header("Mcp-Name", mirrored(name));
        }
        if (params.get("arguments") instanceof JsonObject args && args.get("idempotency_key") instanceof jakarta.json.JsonString key) {
            request.header("Mcp-Param-Idempotency-Key", mirrored(key.getString()));
        }
        return request;
    }

    /** A body value as a header carries it: as it is when it is visible ASCII, else in SEP-2243's Base64 sentinel form. */
    public static String mirrored(String value) {
        return value.chars().allMatch(c -> c >= 0x20 && c <= 0x7E) ? value : "=?base64?"
                + java.util.Base64.getEncoder().encodeToString(value.getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "?=";
    }

    /** {@link #modern} without client capabilities. */
    public HttpRequest.Builder modern(Object id, String method, JsonObject params) {
        return modern(id, method, params, Json.createObjectBuilder().build());
    }

    /** A tool call's params. */
    public static JsonObject toolParams(String tool, JsonObject arguments) {
        return Json.createObjectBuilder().add("name", tool).add("arguments", arguments).build();
    }
}
