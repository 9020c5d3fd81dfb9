package dev.toolgate.it.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import dev.toolgate.simulator.tls.SimulatorTls;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A gateway whose targets' TLS is wrong or needs more than trust: 1C at an origin whose certificate, from
 * the trusted CA, names another host; Bitrix24 at one that asks for a client certificate, which is given.
 * A refused handshake leaves nothing at the target: every attempt is "not sent", none is looked up, and
 * the operation never becomes unknown.
 */
@Lane(2) // for balance: without it lane 3 runs about 55 s longer than lane 2 (suite timings), and this suite takes 28 s
class TargetTlsIT {

    private static GatewayProcess gateway;
    private final SimulatorClient targets = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        Simulators simulators = TestStack.simulators();
        SimulatorTls tls = simulators.tls();
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase("tls"));
        config.put("toolgate.target.1c.url", Simulators.oneCUrl(simulators.misnamedBaseUrl()));
        config.put("toolgate.target.bitrix24.url", Simulators.bitrix24Url(simulators.mutualTlsBaseUrl()));
        config.put("toolgate.target.bitrix24.tls.client-certificate", tls.clientChain().toString());
        config.put("toolgate.target.bitrix24.tls.client-key", tls.clientKey().toString());
        gateway = TestStack.readyGateway(config, "tls-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
    }

    @Test
    void refusesATargetWhoseCertificateNamesAnotherHostWithNothingSent() {
        String key = "test:invoice.create:tls-" + UUID.randomUUID() + ":v1";
        JsonObject operation = new Agent(gateway.baseUrl()).submit(key, Agent.invoice("order-tls-1", 1_000)).operation();
        assertEquals("failed_final", operation.getString("status"), operation.toString()); // the in-call retries ran out
        assertEquals("retries_exhausted", operation.getString("error_code"));
        String detail = operation.getJsonObject("error").getString("detail");
        assertTrue(detail.contains("none executed") && detail.contains("tls_handshake_failed"), detail);
        assertEquals(0, targets.creates("1c", Agent.downstream(key)), "nothing reached the target");
        assertEquals(0, targets.lookups("1c", Agent.downstream(key)), "not unknown: nothing to look up");
    }

    @Test
    void withTheClientCertificateATargetAskingForOneCreatesOnce() {
        String key = "test:crm.deal.create:tls-" + UUID.randomUUID() + ":v1";
        String deal = "{\"operation\":\"crm.deal.create\",\"target\":\"bitrix24\",\"payload\":"
                + "{\"title\":\"Поставка\",\"amount_minor\":990000,\"currency\":\"RUB\"}}";
        Agent.Answer created = new Agent(gateway.baseUrl()).submit(key, deal);
        assertEquals(201, created.status(), created.body());
        assertEquals(List.of(created.json().getString("target_object_id")), targets.effects("bitrix24", Agent.downstream(key)));
    }
}
