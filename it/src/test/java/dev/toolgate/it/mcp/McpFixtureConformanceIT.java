package dev.toolgate.it.mcp;

import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

/**
 * The official MCP conformance suite's scenarios that drive the reference server's fixture tools, against a gateway of
 * its own on the test-only WAR that mounts them beside the product's tools (module mcp-fixtures, docs/mcp.md#conformance):
 * {@code greet}, {@code test_missing_capability}, {@code test_logging_tool}, and {@code slow_compute} and
 * {@code failing_job}, whose work is a real invoice at the 1C simulator under a key of their own, and
 * {@code confirm_delete}, a payment that waits for a person's approval — so the tasks the suite judges are the
 * journal's rows, made and read by the product's tasks code. The simulator is armed here, by the keys'
 * names: {@code slow-compute-<n>s} takes n seconds, {@code failing-job} is refused.
 */
@Lane(2)
class McpFixtureConformanceIT {

    private static final String SUITE = "conformance-2026";
    /** More than any scenario makes: each arming lasts the whole suite. */
    private static final int EVERY_CALL = 1_000;
    /** The {@code seconds} the scenarios give {@code slow_compute} (0 needs no arming). */
    private static final int[] SLOW_SECONDS = {1, 2, 60};
    /** 1C's answer to a create it refuses: a 4xx other than 401 and 429 is a rejection (docs/targets.md). */
    private static final int REFUSED = 400;

    /**
     * The checks a scenario may leave unpassed, each with the reason its message must give (see
     * {@link ConformanceScenario#judged}); docs/mcp.md#conformance says why each stands.
     */
    private static final Map<String, Map<String, String>> EXCUSED = Map.of(
            "server-stateless", Map.of(
                    // needs a response stream for a request the server sends the client; this endpoint answers one JSON body
                    "sep-2575-http-server-no-independent-requests-on-stream", "test_streaming_elicitation",
                    // a stateless JSON-only endpoint with a fixed tool list: nothing to listen to, no list that changes
                    "sep-2575-server-sends-subscription-ack", "subscriptions/listen is not applicable",
                    "sep-2575-server-tags-subscription-id", "subscriptions/listen is not applicable",
                    "sep-2575-server-honors-notification-filter", "subscriptions/listen is not applicable",
                    "sep-2575-server-sends-prompts-list-changed-on-subscription", "did not declare prompts.listChanged",
                    "sep-2575-server-sends-tools-list-changed-on-subscription", "did not declare tools.listChanged"),
            "tasks-lifecycle", Map.of(
                    // a task is a journal row, and no row ends in a JSON-RPC error: a bug answers its call -32603, the row stays
                    "sep-2663-tasks-get-status-failed", "unknown tool: params.name names no tool",
                    // an attempt that may have reached the target is not stopped: it runs to a recorded outcome (60 s here)
                    "sep-2663-cancel-ack-empty-result", "did not reach terminal state within 10000ms"),
            "tasks-dispatch-and-envelope", Map.of(
                    // confirm_delete waits for a person's approval, which is asked for by URL-mode elicitation only; the
                    // suite's client declares form mode alone (elicitation: {}), so the task is working, the page in its message
                    "tasks-result-type-complete-on-non-task-responses", "did not reach status input_required within 5000ms"));

    private static GatewayProcess gateway;

    @BeforeAll
    static void start() throws Exception {
        gateway = TestStack.readyFixtureGateway(TestStack.configFor(TestStack.newDatabase("mcpfix")), "mcp-fixtures-gateway");
        SimulatorClient oneC = TestStack.targets();
        for (int seconds : SLOW_SECONDS) {
            oneC.arm("1c", "slow-compute-" + seconds + "s-", "POST", "delay", EVERY_CALL, seconds * 1_000L);
        }
        oneC.armStatus("1c", "failing-job-", "POST", REFUSED, EVERY_CALL);
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "server-stateless",
            "tasks-capability-negotiation",
            "tasks-lifecycle",
            "tasks-wire-fields",
            "tasks-request-state-removal",
            "tasks-request-headers",
            "tasks-dispatch-and-envelope",
            "tasks-required-task-error",
    })
    void passesTheConformanceScenario(String scenario) throws Exception {
        ConformanceScenario.passes(gateway.baseUrl(), SUITE, scenario, EXCUSED.getOrDefault(scenario, Map.of()));
    }
}
