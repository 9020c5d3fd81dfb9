package dev.toolgate.it.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.UUID;

/**
 * Which role may do what: agents submit, approvers approve, operators reconcile and scrape metrics,
 * auditors read; probes and the API description are open to anyone.
 */
class RolesIT extends MicroSuite {

    @Test
    void refusesTheWrongRole() {
        assertEquals(403, new Agent(baseUrl(), "auditor").send(post(key("audit"), Agent.invoice("o", 1))).status());
        assertEquals(403, new Agent(baseUrl(), "approver").send(post(key("approve"), Agent.invoice("o", 1))).status());
        Agent agent = new Agent(baseUrl());
        Agent.Answer reconcile = agent.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/reconciliations"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(403, reconcile.status());
        assertEquals("forbidden", reconcile.problem());
        assertEquals(403, agent.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/principals"))).status());
    }

    @Test
    void probesAndTheApiDescriptionNeedNoTokenAndMetricsNeedAnOperator() {
        Agent agent = new Agent(baseUrl()); // agent-a: its token is sent only by submit and send
        Agent.Answer live = agent.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/health/live")));
        assertEquals(200, live.status(), live.body());
        Agent.Answer ready = agent.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/health/ready")));
        assertEquals(200, ready.status(), ready.body());
        assertEquals("UP", ready.json().getString("status"));
        Agent.Answer described = agent.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/openapi.yaml")));
        assertEquals(200, described.status());
        assertTrue(described.body().startsWith("openapi: 3.0.3"));
        assertEquals(401, agent.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/metrics"))).status());
        assertEquals(401, agent.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/health/live"))
                .POST(HttpRequest.BodyPublishers.noBody())).status(), "only the GET is public");

        String key = "test:invoice.create:metrics-" + UUID.randomUUID() + ":v1";
        agent.submit(key, Agent.invoice("order-metrics", 700));
        agent.submit(key, Agent.invoice("order-metrics", 700));
        assertEquals(403, agent.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/metrics"))).status(), "agents may not scrape");
        Agent.Answer scraped = new Agent(baseUrl(), "operator").send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/metrics")));
        assertEquals(200, scraped.status(), scraped.body());
        assertTrue(scraped.header("Content-Type").startsWith("text/plain"), scraped.header("Content-Type"));
        for (String series : List.of("toolgate_captures_total{decision=\"execute\"}", "toolgate_captures_total{decision=\"replay\"}",
                "toolgate_target_calls_total{target=\"1c\",error_class=\"none\"}", "toolgate_target_call_seconds_bucket{target=\"1c\",le=\"+Inf\"}",
                "toolgate_outcomes_total{target=\"1c\",status=\"succeeded\"}", "toolgate_reconcile_lag_seconds ",
                "toolgate_operations_unfinished{status=\"unknown\"}")) {
            assertTrue(scraped.body().contains(series), series + " in\n" + scraped.body());
        }
    }
}
