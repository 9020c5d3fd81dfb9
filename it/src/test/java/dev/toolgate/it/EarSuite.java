package dev.toolgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The end-to-end suite every server must pass with the one EAR users deploy: seed 000's verification
 * steps (create once, replay the identical answer, refuse a changed payload) and one reconcile-job run.
 */
abstract class EarSuite {

    final SimulatorClient oneC = TestStack.targets();

    /** Where the deployed EAR answers. */
    abstract String baseUrl();

    @Test
    void createsOnceReplaysAndRefusesAChangedPayload() {
        Agent agent = new Agent(baseUrl());
        String key = "test:invoice.create:ear-" + UUID.randomUUID() + ":v1";

        Agent.Answer first = agent.submit(key, Agent.invoice("order-ear-1", 125000));
        Agent.Answer again = agent.submit(key, Agent.invoice("order-ear-1", 125000));
        Agent.Answer changed = agent.submit(key, Agent.invoice("order-ear-1", 125001));

        assertEquals(201, first.status(), first.body());
        assertEquals(200, again.status());
        assertEquals(first.body(), again.body());
        assertEquals(422, changed.status());
        assertEquals(List.of(first.json().getString("target_object_id")), oneC.effects("1c", Agent.downstream(key)));
    }

    @Test
    void answersProbesMetricsAndTheApiDescriptionOnThisServer() {
        Agent operator = new Agent(baseUrl(), "operator");
        Agent.Answer ready = operator.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/health/ready")));
        assertEquals(200, ready.status(), ready.body());
        Agent.Answer described = operator.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/openapi.yaml")));
        assertEquals(200, described.status());
        Agent.Answer metrics = operator.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/metrics")));
        assertEquals(200, metrics.status(), metrics.body());
        assertTrue(metrics.body().contains("toolgate_reconcile_lag_seconds "), metrics.body());
    }

    @Test
    void theReconcileJobSettlesADroppedResponse() throws Exception {
        Agent agent = new Agent(baseUrl());
        String key = "test:invoice.create:ear-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals(202, agent.submit(key, Agent.invoice("order-ear-2", 5000)).status());

        Agent operator = new Agent(baseUrl(), "operator");
        Agent.Answer started = operator.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/reconciliations"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(202, started.status(), started.body());
        JsonObject run = awaitCompletion(operator, started.header("Location"));

        assertEquals(1, run.getJsonObject("counts").getInt("found"), run.toString());
        JsonObject operation = agent.find(key).json();
        assertEquals("succeeded", operation.getString("status"));
        assertEquals(List.of(operation.getString("target_object_id")), oneC.effects("1c", Agent.downstream(key)));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)));
    }

    static JsonObject awaitCompletion(Agent agent, String location) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            Agent.Answer answer = agent.send(HttpRequest.newBuilder(URI.create(location)));
            assertEquals(200, answer.status(), location + " -> " + answer.body());
            JsonObject run = answer.json();
            if (run.getString("status").equals("COMPLETED")) {
                return run;
            }
            if (run.getString("status").equals("FAILED")) {
                throw new AssertionError("the reconcile run failed: " + run);
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the reconcile run did not complete within 60 s");
    }
}
