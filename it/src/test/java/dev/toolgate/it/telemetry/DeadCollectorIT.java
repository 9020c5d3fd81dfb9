package dev.toolgate.it.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Await;
import dev.toolgate.it.support.OtlpReceiver;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tracing on, its collector down: the agents' calls go on as ever (the spans are exported in the background
 * and lost), and the loss is counted where an operator looks ({@code toolgate_trace_spans_dropped_total}).
 * How much the exporting costs a call is the benchmark's figure, not a test's.
 */
class DeadCollectorIT {

    private static final Pattern DROPPED = Pattern.compile("(?m)^toolgate_trace_spans_dropped_total (\\d+)$");
    private static final Pattern EXPORTED = Pattern.compile("(?m)^toolgate_trace_spans_exported_total (\\d+)$");
    private static GatewayProcess gateway;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase("dead_collector"));
        // a port nobody listens on: every export is refused
        config.putAll(OtlpReceiver.gatewayConfig("http://127.0.0.1:" + LocalStack.freePort()));
        gateway = TestStack.readyGateway(config, "dead-collector-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
    }

    @Test
    void callsGoOnAsEverAndTheLostSpansAreCounted() throws Exception {
        Agent agent = new Agent(gateway.baseUrl());
        for (int i = 0; i < 10; i++) {
            String key = "test:invoice.create:dead-collector-" + UUID.randomUUID() + ":v1";
            Agent.Answer created = agent.submit(key, Agent.invoice("order-dead-" + i, 1000 + i));
            assertEquals(201, created.status(), created.body());
            assertEquals(200, agent.submit(key, Agent.invoice("order-dead-" + i, 1000 + i)).status());
        }

        Agent operator = new Agent(gateway.baseUrl(), "operator");
        // each new operation makes at least five spans (tool, capture, attempt, client, record), each replay two
        Await.await(() -> figure(DROPPED, scrape(operator)) >= 10 * (5 + 2), "every call's spans counted as dropped", Duration.ofSeconds(60));
        String metrics = scrape(operator);
        assertEquals(0, figure(EXPORTED, metrics), metrics);
    }

    private String scrape(Agent operator) {
        Agent.Answer scraped = operator.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api/metrics")));
        assertEquals(200, scraped.status(), scraped.body());
        return scraped.body();
    }

    private static long figure(Pattern series, String metrics) {
        Matcher m = series.matcher(metrics);
        assertTrue(m.find(), metrics);
        return Long.parseLong(m.group(1));
    }
}
