package dev.toolgate.it.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.OtlpReceiver;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Every secret sent, once per test JVM, through a gateway process and journal of its own that traces to a receiver in
 * the test: the half of the secrets scan that needs a server. In a full run {@link SecretsSentIT} does it in a lane,
 * beside the other suites, so that {@link SecretsScanIT}, last and alone, only reads; run alone, the scan sends first.
 */
final class SecretsSent {

    private static final String DATABASE = "secrets";
    private static String spans;
    private static Throwable failed;
    private static GatewayProcess gateway;

    private SecretsSent() {
    }

    /** The text of every span the gateway exported while every secret went through it; sends on the first call only. */
    static synchronized String spans() throws Exception {
        if (failed != null) {
            throw new IllegalStateException("sending the secrets failed earlier in this run", failed); // not sent twice
        }
        if (spans == null) {
            try (OtlpReceiver traces = OtlpReceiver.start()) {
                Map<String, String> config = TestStack.configFor(TestStack.newDatabase(DATABASE));
                config.putAll(OtlpReceiver.gatewayConfig(traces.endpoint())); // and the spans it exports
                config.put("toolgate.reconcile.interval-seconds", "0"); // the caller's retry settles the lost response, not the job
                gateway = TestStack.readyGateway(config, "secrets-gateway");
                try {
                    sendEverySecret();
                    traces.awaitQuiet(Duration.ofSeconds(2), Duration.ofSeconds(60)); // every span of every call above
                } finally {
                    gateway.close(); // in order: what it exports as it stops is scanned too; its log stays for the scan
                }
                spans = traces.exportedText();
            } catch (Throwable e) {
                failed = e;
                throw e;
            }
        }
        return spans;
    }

    /**
     * Makes the gateway hold or use every secret: the admin token and every principal's token
     * (issued on first use), 1C's password on a create whose response is lost and on its look-up,
     * Bitrix24's webhook secret on a retried call, YooKassa's key on an approved payment, a person's
     * INN, and card numbers in a field and in a key.
     */
    private static void sendEverySecret() {
        Agent agent = new Agent(gateway.baseUrl());
        SimulatorClient targets = TestStack.targets();
        String invoice = key("invoice.create");
        targets.arm("1c", invoice, "drop_response_after_commit", 1);
        assertEquals(202, agent.submit(invoice, Agent.invoice("order-secrets", 100)).status());
        assertEquals(200, agent.submit(invoice, Agent.invoice("order-secrets", 100)).status(), "found by the look-up");
        assertEquals(201, agent.submit(key("invoice.create"), Agent.invoiceToPerson("order-person", 100)).status());

        String deal = key("crm.deal.create");
        targets.armStatus("bitrix24", deal, 503, 1);
        assertEquals(201, agent.submit(deal, "{\"operation\":\"crm.deal.create\",\"target\":\"bitrix24\",\"payload\":"
                + "{\"title\":\"Deal\",\"amount_minor\":1000,\"currency\":\"RUB\"}}").status());

        String payment = key("payment.create");
        String body = "{\"operation\":\"payment.create\",\"target\":\"yookassa\",\"payload\":{\"order_id\":\"order-secrets\","
                + "\"amount_minor\":1000,\"currency\":\"RUB\",\"description\":\"Order\"}}";
        assertEquals(202, agent.submit(payment, body).status(), "a payment waits for approval");
        approve(payment);
        assertEquals(201, agent.submit(payment, body).status());

        for (String card : SensitiveDataIT.TEST_CARDS) {
            assertEquals(422, agent.submit(key("invoice.create"), Agent.invoice("order " + card, 100)).status());
            assertEquals(422, agent.submit("test:pay:" + card.replace(" ", "") + ":v1", Agent.invoice("o", 1)).status());
            throughEveryOtherDoor(card, payment);
        }
    }

    /**
     * A card number in each place a value enters besides submit's body and header: a path, a query, a traceparent, a
     * person's note, reason and evidence, an MCP argument, the console. Each is refused (4xx) before it is used.
     */
    private static void throughEveryOtherDoor(String card, String payment) {
        String inKey = "test:pay:" + card.replace(" ", "") + ":v1";
        String encoded = java.net.URLEncoder.encode(inKey, StandardCharsets.UTF_8).replace("+", "%20");
        Agent agent = new Agent(gateway.baseUrl());
        Agent operator = new Agent(gateway.baseUrl(), "operator");
        Agent approver = new Agent(gateway.baseUrl(), "approver");
        String api = gateway.baseUrl() + "/api/v1";
        List<Agent.Answer> answers = new ArrayList<>();
        answers.add(agent.send(HttpRequest.newBuilder(URI.create(api + "/operations/" + encoded + "/resume")).POST(HttpRequest.BodyPublishers.noBody())));
        answers.add(agent.send(HttpRequest.newBuilder(URI.create(api + "/operations/" + encoded))));
        answers.add(agent.send(HttpRequest.newBuilder(URI.create(api + "/operations?key=" + encoded))));
        answers.add(agent.send(HttpRequest.newBuilder(URI.create(api + "/processes?key=" + encoded))));
        answers.add(agent.send(HttpRequest.newBuilder(URI.create(api + "/processes/" + encoded + "/resume")).POST(HttpRequest.BodyPublishers.noBody())));
        answers.add(operator.send(HttpRequest.newBuilder(URI.create(api + "/operations/" + encoded + "/resolve")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"outcome\":\"failed_final\",\"reason\":\"r\",\"evidence\":\"e\"}"))));
        answers.add(operator.send(HttpRequest.newBuilder(URI.create(api + "/operations/" + payment + "/resolve")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"outcome\":\"failed_final\",\"reason\":\"card " + card + "\",\"evidence\":\"e\"}"))));
        answers.add(approver.send(HttpRequest.newBuilder(URI.create(api + "/approvals")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"operation_key\":\"" + payment + "\",\"note\":\"paid by " + card + "\"}"))));
        answers.add(approver.send(HttpRequest.newBuilder(URI.create(api + "/approvals/apr-1?reason=" + java.net.URLEncoder.encode(card, StandardCharsets.UTF_8)))
                .DELETE()));
        answers.add(agent.send(agent.operations().header("Idempotency-Key", key("invoice.create")).header("Content-Type", "application/json")
                .header("traceparent", "00-" + card.replace(" ", "") + "-00f067aa0ba902b7-01")
                .POST(HttpRequest.BodyPublishers.ofString(Agent.invoice("order-tp", 100)))));
        answers.add(agent.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/console/search?key=" + encoded))));
        for (Agent.Answer answer : answers) {
            assertTrue(answer.status() >= 400 && answer.status() < 500, "refused: " + answer.status() + " " + answer.body());
            assertFalse(answer.body().contains(card), "the answer does not quote it: " + answer.body());
        }
        dev.toolgate.it.support.McpHttp mcp = new dev.toolgate.it.support.McpHttp(gateway.baseUrl(), "agent-a");
        for (String tool : List.of("get_operation", "resume_operation", "get_process")) {
            var answer = dev.toolgate.it.support.McpHttp.send(mcp.post(dev.toolgate.it.support.McpHttp.toolCall(7, tool,
                    jakarta.json.Json.createObjectBuilder().add("idempotency_key", inKey).build())));
            assertTrue(dev.toolgate.it.support.McpHttp.json(answer).getJsonObject("result").getBoolean("isError"), tool + ": " + answer.body());
        }
    }

    private static void approve(String key) {
        Agent approver = new Agent(gateway.baseUrl(), "approver");
        String fingerprint = approver.find(key).json().getString("request_hash");
        String grant = "{\"operation_key\":\"" + key + "\",\"request_hash\":\"" + fingerprint + "\",\"expires_in_seconds\":3600}";
        Agent.Answer granted = approver.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api/v1/approvals"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(grant)));
        assertEquals(201, granted.status(), granted.body());
    }

    private static String key(String operation) {
        return "test:" + operation + ":secrets-" + UUID.randomUUID() + ":v1";
    }

}
