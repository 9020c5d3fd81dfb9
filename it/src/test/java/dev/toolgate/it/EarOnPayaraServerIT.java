package dev.toolgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The EAR users deploy, on Payara Server 6 from Maven Central: the same flow, and one reconcile-job run. */
class EarOnPayaraServerIT {

    private static PayaraServer server;
    private final SimulatorClient oneC = TestStack.targets();

    @BeforeAll
    static void deploy() throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase("ear"));
        config.put("toolgate.reconcile.interval-seconds", "0"); // the test starts the run itself
        server = PayaraServer.start(Path.of(System.getProperty("payara.server.home")),
                Path.of("target", "payara-domains").toAbsolutePath(), LocalStack.asEnvironment(config));
        server.deploy(TestStack.runtime().resolve("toolgate.ear"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void createsOnceReplaysAndRefusesAChangedPayload() {
        Agent agent = new Agent(server.baseUrl());
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
    void theReconcileJobSettlesADroppedResponse() throws Exception {
        Agent agent = new Agent(server.baseUrl());
        String key = "test:invoice.create:ear-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals(202, agent.submit(key, Agent.invoice("order-ear-2", 5000)).status());

        Agent operator = new Agent(server.baseUrl(), "operator");
        Agent.Answer started = operator.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/v1/reconciliations"))
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
