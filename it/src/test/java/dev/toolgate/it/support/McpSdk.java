package dev.toolgate.it.support;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The official MCP TypeScript SDK's client (npm {@code @modelcontextprotocol/sdk}, the v1 SDK, which speaks
 * 2025-11-25; or with {@link #v2()} the v2 package {@code @modelcontextprotocol/client}, which probes with
 * {@code server/discover} and speaks 2026-07-28 where offered; both pinned in src/test/mcp-client, installed into
 * target/mcp-client by the build's {@code npm ci}, {@link McpClient}), run by node against {@code /mcp} with a principal's token:
 * what a real agent host sends, written by nobody here.
 */
public final class McpSdk {

    private final String url;
    private final String token;
    private final JsonArrayBuilder steps = Json.createArrayBuilder();
    private String sdk = "v1";

    /** {@code baseUrl}'s {@code /mcp} as {@code principal}, with the token issued at {@code baseUrl}. */
    public McpSdk(String baseUrl, String principal) {
        this.url = baseUrl + "/mcp";
        this.token = Credentials.token(baseUrl, principal);
    }

    /** The v2 client in its 'auto' version negotiation; the run's {@code era} says which one it chose. */
    public McpSdk v2() {
        sdk = "v2";
        return this;
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

    /**
     * Connects (v1: initialize, initialized; v2: server/discover, then initialize only for a legacy server), runs the
     * steps in order, closes: {@code {protocolVersion, era, server, steps}}.
     */
    public JsonObject run() {
        String input = Json.createObjectBuilder().add("url", url).add("token", token).add("sdk", sdk).add("steps", steps).build().toString();
        JsonObject output = Node.shared().session(input);
        if (output.containsKey("failure")) {
            throw new AssertionError("the MCP client failed: " + output.getString("failure"));
        }
        return output;
    }

    /**
     * The one node process running mcp-client.mjs for this test JVM: each {@link #run} is a session of its own in it
     * (a new SDK client, connected and closed), one JSON line in and one out. Starting node and loading the SDK took
     * 1-1.7 s on 2 busy cores, for each session when each had a process of its own. Sessions take turns. A process that
     * dies or hangs is replaced by the next session; the last is ended (stdin closed) as the JVM exits.
     */
    private static final class Node {

        private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(120);
        private static final int ERRORS_KEPT = 16_384;
        private static Node shared;

        private final Process process;
        private final OutputStream in;
        private final BufferedReader out;
        private final StringBuilder errors = new StringBuilder();
        private volatile boolean ended;

        private Node(Process process) {
            this.process = process;
            this.in = process.getOutputStream();
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            Thread drain = new Thread(this::drainErrors, "mcp-client-stderr"); // a full stderr pipe would stop node
            drain.setDaemon(true);
            drain.start();
        }

        static synchronized Node shared() {
            if (shared == null || shared.ended || !shared.process.isAlive()) {
                try {
                    Process process = new ProcessBuilder("node", "mcp-client.mjs").directory(McpClient.installed().toFile()).start();
                    shared = new Node(process);
                    Runtime.getRuntime().addShutdownHook(new Thread(shared::end, "mcp-client-stop"));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return shared;
        }

        synchronized JsonObject session(String input) {
            try {
                in.write((input + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                String line = CompletableFuture.supplyAsync(this::readLine).get(SESSION_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                if (line == null) {
                    throw new AssertionError("the MCP client exited: " + errors());
                }
                return Json.createReader(new StringReader(line)).readObject();
            } catch (TimeoutException e) {
                end();
                throw new AssertionError("the MCP client did not answer within " + SESSION_TIMEOUT + ": " + errors());
            } catch (IOException e) {
                end();
                throw new AssertionError("the MCP client is gone: " + errors(), e);
            } catch (ExecutionException e) {
                end();
                throw new AssertionError("the MCP client's answer could not be read: " + errors(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                end();
                throw new IllegalStateException(e);
            }
        }

        private String readLine() {
            try {
                return out.readLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void drainErrors() {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = err.readLine()) != null; ) {
                    synchronized (errors) {
                        errors.append(line).append('\n');
                        if (errors.length() > ERRORS_KEPT) {
                            errors.delete(0, errors.length() - ERRORS_KEPT);
                        }
                    }
                }
            } catch (IOException ended) {
                // the process is gone
            }
        }

        private String errors() {
            synchronized (errors) {
                return errors.toString();
            }
        }

        /** Closing stdin ends node's loop, and with it node; one that does not go is killed. */
        private void end() {
            ended = true;
            try {
                in.close();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (IOException e) {
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    /** The steps' results of {@link #run}. */
    public JsonArray results() {
        return run().getJsonArray("steps");
    }
}
