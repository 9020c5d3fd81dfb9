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
        this.baseUrl = baseUrl;
        this.token = Credentials.token(baseUrl, principal);
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
}
