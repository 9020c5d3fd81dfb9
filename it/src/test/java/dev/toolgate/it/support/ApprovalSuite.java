package dev.toolgate.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.simulator.SimulatorClient;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * A Micro suite whose operations need an approval: YooKassa payments and refunds by agents A and B,
 * approved by the approver as it is shown them (key and fingerprint), resumed or resolved by key.
 */
public abstract class ApprovalSuite extends MicroSuite {

    protected final SimulatorClient yooKassa = TestStack.targets();

    /** A captured payment of {@code amountMinor} kopecks, made through the gateway with an approval. */
    protected String approvedPayment(long amountMinor) {
        String key = "test:payment.create:" + UUID.randomUUID() + ":v1";
        String body = "{\"operation\":\"payment.create\",\"target\":\"yookassa\",\"payload\":{\"order_id\":\"order-" + UUID.randomUUID()
                + "\",\"amount_minor\":" + amountMinor + ",\"currency\":\"RUB\",\"description\":\"Заказ\"}}";
        assertEquals(202, agentA().submit(key, body).status());
        approve(key);
        Agent.Answer paid = agentA().submit(key, body);
        assertEquals(201, paid.status(), paid.body());
        return paid.json().getString("target_object_id");
    }

    /** The approver approves what it was shown: the key and its fingerprint. */
    protected String approve(String key) {
        String fingerprint = approver().find(key).json().getString("request_hash");
        Agent.Answer granted = approver().send(grant("{\"operation_key\":\"" + key + "\",\"request_hash\":\"" + fingerprint
                + "\",\"expires_in_seconds\":3600,\"note\":\"checked against the claim\"}"));
        assertEquals(201, granted.status(), granted.body());
        return granted.json().getString("approval_id");
    }

    protected static String refund(String paymentId, long amountMinor) {
        return "{\"operation\":\"payment.refund\",\"target\":\"yookassa\",\"payload\":{\"payment_id\":\"" + paymentId
                + "\",\"amount_minor\":" + amountMinor + ",\"currency\":\"RUB\",\"reason\":\"Возврат по претензии\"}}";
    }

    protected HttpRequest.Builder resume(String key) {
        return request("/api/v1/operations/" + encode(key) + "/resume").POST(HttpRequest.BodyPublishers.noBody());
    }

    protected HttpRequest.Builder resolve(String key, String body) {
        return request("/api/v1/operations/" + encode(key) + "/resolve").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    protected HttpRequest.Builder grant(String body) {
        return request("/api/v1/approvals").header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    }

    protected HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl() + path));
    }

    protected Agent agentA() {
        return new Agent(baseUrl(), "agent-a");
    }

    protected Agent agentB() {
        return new Agent(baseUrl(), "agent-b");
    }

    protected Agent approver() {
        return new Agent(baseUrl(), "approver");
    }

    protected Agent operator() {
        return new Agent(baseUrl(), "operator");
    }

    protected static String encode(String key) {
        return URLEncoder.encode(key, StandardCharsets.UTF_8);
    }

    /** A fresh refund key; hides {@link MicroSuite#key}, whose keys are invoices'. */
    protected static String key(String intent) {
        return "test:payment.refund:" + intent + "-" + UUID.randomUUID() + ":v1";
    }
}
