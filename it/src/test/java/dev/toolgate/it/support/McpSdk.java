package dev.toolgate.it.support;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The official MCP TypeScript SDK's client (npm {@code @modelcontextprotocol/sdk}, pinned in
 * src/test/mcp-client, installed into target/mcp-client by the build's {@code npm ci}), run by node
 * against {@code /mcp} with a principal's token: what a real agent host sends, written by nobody here.
 */
public final class McpSdk {

    private static final Path CLIENT = Path.of("target", "mcp-client");

    private final String url;
    private final String token;
    private final JsonArrayBuilder steps = Json.createArrayBuilder();

    /** {@code baseUrl}'s {@code /mcp} as {@code principal}, with the token issued at {@code baseUrl}. */
    public McpSdk(String baseUrl, String principal) {
        this.url = baseUrl + "/mcp";
        this.token = Credentials.token(baseUrl, principal);
    }

    public McpSdk list() {
        steps.add(Json.createObjectBuilder().add("list", true));
        return this;
    }

    public McpSdk call(String tool, JsonObject arguments) {
        steps.add(Json.createObjectBuilder().add("call", tool).add("arguments", arguments));
        return this;
    }

    /** The call with {@code params._meta}: trace context, as a host that traces its agents sends it. */
    public McpSdk call(String tool, JsonObject arguments, JsonObject meta) {
        steps.add(Json.createObjectBuilder().add("call", tool).add("arguments", arguments).add("meta", meta));
        return this;
    }

    /** {@code times} identical calls at once; the step's result is the array of their results. */
    public McpSdk concurrently(int times, String tool, JsonObject arguments) {
        steps.add(Json.createObjectBuilder().add("call", tool).add("arguments", arguments).add("times", times));
        return this;
    }

    /** Connects (initialize, initialized), runs the steps in order, closes: {@code {protocolVersion, server, steps}}. */
    public JsonObject run() {
        if (!Files.isDirectory(CLIENT.resolve("node_modules"))) {
            throw new IllegalStateException("no " + CLIENT.resolve("node_modules") + ": the build's npm ci (it/pom.xml) did not run");
        }
        String input = Json.createObjectBuilder().add("url", url).add("token", token).add("steps", steps).build().toString();
        try {
            Process node = new ProcessBuilder("node", "mcp-client.mjs").directory(CLIENT.toFile()).start();
            CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> text(node.getErrorStream()));
            try (OutputStream in = node.getOutputStream()) {
                in.write(input.getBytes(StandardCharsets.UTF_8));
            }
            String output = text(node.getInputStream());
            if (!node.waitFor(120, TimeUnit.SECONDS) || node.exitValue() != 0) {
                node.destroyForcibly();
                throw new AssertionError("the MCP client failed: " + errors.join() + "\n" + output);
            }
            return Json.createReader(new StringReader(output)).readObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The steps' results of {@link #run}. */
    public JsonArray results() {
        return run().getJsonArray("steps");
    }

    private static String text(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
