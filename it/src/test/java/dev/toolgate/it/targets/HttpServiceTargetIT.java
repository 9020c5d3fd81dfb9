package dev.toolgate.it.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A gateway whose {@code 1c} target is the generic HTTP adapter, configured for 1C's HTTP service (the
 * hardened deployment): agents still say {@code invoice.create} to {@code 1c}; nothing in the code knows
 * the service's fields.
 */
class HttpServiceTargetIT {

    private static GatewayProcess gateway;
    private final SimulatorClient oneC = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase("hs"));
        config.putAll(TestStack.simulators().oneCHttpServiceSettings());
        config.put("toolgate.reconcile.settle-seconds", "1");
        gateway = TestStack.readyGateway(config, "hs-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
    }

    @Test
    void createsOnceThroughTheConfiguredServiceAndSettlesALostAnswerByKey() throws Exception {
        Agent agent = new Agent(gateway.baseUrl());
        String key = "test:invoice.create:hs-" + UUID.randomUUID() + ":v1";
        Agent.Answer created = agent.submit(key, Agent.invoice("order-hs-1", 99_000));
        assertEquals(201, created.status(), created.body());
        assertEquals(List.of(created.json().getString("target_object_id")), oneC.effects("1c", Agent.downstream(key)));
        assertEquals(200, agent.submit(key, Agent.invoice("order-hs-1", 99_000)).status(), "replayed");

        String lost = "test:invoice.create:hs-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", Agent.downstream(lost), "drop_response_after_commit", 1);
        assertEquals(202, agent.submit(lost, Agent.invoice("order-hs-2", 5_000)).status());
        Agent.Answer settled = agent.submit(lost, Agent.invoice("order-hs-2", 5_000));
        assertEquals(200, settled.status(), settled.body()); // looked up by key: found, a replay of the lost answer
        assertEquals(List.of(settled.json().getString("target_object_id")), oneC.effects("1c", Agent.downstream(lost)));
        assertEquals(1, oneC.creates("1c", Agent.downstream(lost)));
    }
}
