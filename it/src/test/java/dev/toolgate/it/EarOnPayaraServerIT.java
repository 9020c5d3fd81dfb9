package dev.toolgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/** The EAR users deploy, on Payara Server 6 from Maven Central: a smoke test of the same flow. */
class EarOnPayaraServerIT {

    private static PayaraServer server;
    private final SimulatorClient oneC = TestStack.targets();

    @BeforeAll
    static void deploy() throws Exception {
        server = PayaraServer.start(Path.of(System.getProperty("payara.server.home")),
                Path.of("target", "payara-domains").toAbsolutePath(), LocalStack.asEnvironment(TestStack.gatewayConfig()));
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
        assertEquals(List.of(first.json().getString("target_object_id")), oneC.effects("1c", key));
    }

    @Test
    void settlesADroppedResponseByLookingUpTheKey() {
        Agent agent = new Agent(server.baseUrl());
        String key = "test:invoice.create:ear-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", key, "drop_response_after_commit", 1);

        assertEquals(202, agent.submit(key, Agent.invoice("order-ear-2", 5000)).status());
        Agent.Answer settled = agent.submit(key, Agent.invoice("order-ear-2", 5000));

        assertEquals(200, settled.status(), settled.body());
        assertEquals(1, oneC.creates("1c", key));
        assertEquals(1, oneC.effects("1c", key).size());
    }
}
