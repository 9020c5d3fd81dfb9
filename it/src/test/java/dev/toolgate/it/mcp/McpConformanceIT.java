package dev.toolgate.it.mcp;

import dev.toolgate.it.support.MicroSuite;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

/**
 * The official MCP conformance suite against {@code /mcp} of the product WAR on Payara Micro, scenario by scenario: every
 * one that needs no fixture tool (0.1.16 knows 2025-11-25; 2026-07-28's scenarios are in the 0.2.0 alphas). Those that
 * drive the reference server's fixture tools run in {@link McpFixtureConformanceIT}, on a test WAR that mounts them;
 * docs/mcp.md#conformance says which run where, and which do not run and why.
 */
class McpConformanceIT extends MicroSuite {

    /**
     * The checks a scenario may leave unpassed, each with why: {@code check id → text its errorMessage (or, lacking one,
     * its details) must hold} ({@link ConformanceScenario#judged}).
     */
    private static final Map<String, Map<String, String>> EXCUSED = Map.of(
            // its tools/list check applies and must pass; prompts and resources are not served
            "caching", Map.of(
                    "sep-2549-prompts-list-caching-hints", "method not found: this server has no method of that name",
                    "sep-2549-resources-list-caching-hints", "method not found: this server has no method of that name",
                    "sep-2549-resources-templates-list-caching-hints", "method not found: this server has no method of that name",
                    "sep-2549-resources-read-caching-hints", "resources/list failed or returned no resources"));

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
            "conformance-2026; caching",
    })
    void passesTheConformanceScenario(String suite, String scenario) throws Exception {
        ConformanceScenario.passes(baseUrl(), suite, scenario, EXCUSED.getOrDefault(scenario, Map.of()));
    }
}
