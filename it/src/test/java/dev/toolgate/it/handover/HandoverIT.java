package dev.toolgate.it.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroDeployment;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.it.support.YooKassaDirect;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.JsonObject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * The handover end to end, with two agent identities: agent A's refund is approved and dispatched, the
 * provider commits, the response is lost, A is gone; agent B reads the record and resumes. And the
 * variants: pending, revoked with nothing found, two refunds under one key, a changed amount, and
 * agents trying to approve or resolve.
 */
@ExtendWith(ArquillianExtension.class)
class HandoverIT {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @ArquillianResource
    URL deployment;

    private final SimulatorClient yooKassa = TestStack.targets();

    @Deployment(testable = false)
    static WebArchive gateway() {
        return MicroDeployment.gatewayWar();
    }

    @Test
    void replacementAgentInheritsALostRefundAndReconciliationFindsItWithoutRefundingTwice() {
        String paymentId = approvedPayment(100_000);
        String key = key("refund");
        Agent.Answer waiting = agentA().send(traced(agentA().operations().header("Idempotency-Key", key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(refund(paymentId, 40_000)))));
        assertEquals(202, waiting.status(), waiting.body());
        assertEquals("approval-required", waiting.problem());
        assertEquals("pending_approval", waiting.operation().getString("status"));
        assertEquals(0, yooKassa.creates("yookassa", Agent.downstream(key)), "nothing is sent before approval");
        approve(key);

        yooKassa.arm("yookassa", Agent.downstream(key), "drop_response_after_commit", 1);
        Agent.Answer lost = agentA().submit(key, refund(paymentId, 40_000)); // A's last words; then A is gone
        assertEquals(202, lost.status(), lost.body());
        assertEquals("outcome-unknown", lost.problem());

        JsonObject record = agentB().find(key).json();
        assertEquals("unknown", record.getString("status"));
        assertEquals(40_000, record.getJsonObject("payload").getInt("amount_minor"), "the approved parameters");
        assertEquals("active", record.getJsonObject("approval").getString("state"));
        assertEquals("reconcile_before_retry", record.getString("last_error_class"));
        assertEquals("resume", record.getJsonObject("next_action").getString("action"));
        assertEquals(TRACE_ID, record.getString("trace_id"), "the agent's trace id is on the row");
        assertTrue(record.getJsonArray("events").getValuesAs(JsonObject.class).stream()
                .anyMatch(e -> TRACE_ID.equals(e.getString("trace_id", null))), "and on its events");

        Agent.Answer resumed = agentB().send(resume(key));
        assertEquals(200, resumed.status(), resumed.body());
        assertEquals("succeeded", resumed.json().getString("status"));
        String refundId = resumed.json().getString("target_object_id");
        assertEquals(List.of(refundId), yooKassa.effects("yookassa", Agent.downstream(key)));
        assertEquals(1, yooKassa.creates("yookassa", Agent.downstream(key)), "no second refund, though the payment covers one");
        JsonObject events = agentB().find(key).json();
        assertTrue(events.getJsonArray("events").getValuesAs(JsonObject.class).stream()
                .anyMatch(e -> "resumed".equals(e.getString("kind")) && "agent-b".equals(e.getString("actor"))));
    }

    @Test
    void waitsWhileTheProviderSaysPendingAndSendsNothingNew() {
        String paymentId = approvedPayment(50_000);
        String key = key("refund-pending");
        assertEquals(202, agentA().submit(key, refund(paymentId, 10_000)).status());
        approve(key);
        yooKassa.armPending("yookassa", Agent.downstream(key), 60_000);
        Agent.Answer pending = agentA().submit(key, refund(paymentId, 10_000));
        assertEquals(202, pending.status(), pending.body());
        assertEquals("target_pending", pending.operation().getString("error_code"));

        sleep(1_200); // the provider's hint has passed: B may look again
        Agent.Answer resumed = agentB().send(resume(key));
        assertEquals(202, resumed.status(), resumed.body());
        assertEquals("unknown", resumed.operation().getString("status"));
        assertEquals(1, yooKassa.creates("yookassa", Agent.downstream(key)), "pending: nothing resent");
        assertEquals(1, yooKassa.effects("yookassa", Agent.downstream(key)).size());
    }

    @Test
    void failsForGoodWithoutSendingWhenNothingWasFoundAndTheApprovalWasRevoked() {
        String paymentId = approvedPayment(50_000);
        String key = key("refund-revoked");
        assertEquals(202, agentA().submit(key, refund(paymentId, 10_000)).status());
        String approvalId = approve(key);
        yooKassa.arm("yookassa", Agent.downstream(key), "reset_before_commit", 1);
        assertEquals(202, agentA().submit(key, refund(paymentId, 10_000)).status(), "sent, unanswered: unknown");

        Agent.Answer revoked = approver().send(request("/api/v1/approvals/" + approvalId + "?reason=customer%20withdrew%20the%20claim")
                .DELETE());
        assertEquals(200, revoked.status(), revoked.body());
        assertEquals("revoked", revoked.json().getString("state"));
        sleep(2_500); // past the settle window: absence now proves nothing happened

        Agent.Answer resumed = agentB().send(resume(key));
        assertEquals(409, resumed.status(), resumed.body());
        assertEquals("approval-lapsed", resumed.problem());
        assertEquals("approval_revoked", resumed.operation().getString("error_code"));
        assertEquals(1, yooKassa.creates("yookassa", Agent.downstream(key)), "nothing sent after the revocation");
        assertEquals(0, yooKassa.effects("yookassa", Agent.downstream(key)).size());
    }

    @Test
    void escalatesTwoRefundsUnderOneKeyAndOnlyAnOperatorResolvesIt() {
        String paymentId = approvedPayment(100_000);
        String key = key("refund-twice");
        assertEquals(202, agentA().submit(key, refund(paymentId, 10_000)).status());
        approve(key);
        yooKassa.arm("yookassa", Agent.downstream(key), "drop_response_after_commit", 1);
        assertEquals(202, agentA().submit(key, refund(paymentId, 10_000)).status());
        refundBehindTheGatewaysBack(paymentId, Agent.downstream(key)); // a racing duplicate: another client, another Idempotence-Key

        Agent.Answer resumed = agentB().send(resume(key));
        assertEquals(202, resumed.status(), resumed.body());
        assertNotNull(resumed.operation().getString("escalated_at", null), resumed.body());
        JsonObject escalations = operator().send(request("/api/v1/escalations").GET()).json();
        assertTrue(escalations.getJsonArray("escalations").getValuesAs(JsonObject.class).stream()
                .anyMatch(o -> key.equals(o.getString("operation_key"))));

        String resolution = "{\"outcome\":\"succeeded\",\"target_object_id\":\"" + yooKassa.effects("yookassa", Agent.downstream(key)).get(0)
                + "\",\"evidence\":\"second refund returned by the bank, ticket 4711\"}";
        assertEquals(403, agentB().send(resolve(key, resolution)).status(), "an agent cannot resolve");
        assertEquals(403, agentB().send(request("/api/v1/escalations").GET()).status());
        Agent.Answer resolved = operator().send(resolve(key, resolution));
        assertEquals(200, resolved.status(), resolved.body());
        assertEquals("succeeded", resolved.json().getString("status"));
        JsonObject story = agentB().find(key).json();
        assertTrue(story.getJsonArray("events").getValuesAs(JsonObject.class).stream()
                .anyMatch(e -> "resolved".equals(e.getString("kind")) && "operator".equals(e.getString("actor"))));
        assertEquals(2, yooKassa.creates("yookassa", Agent.downstream(key)), "the gateway itself sent one");
    }

    @Test
    void refusesAChangedAmountOnResumeAndOnRetryAndAnAgentCannotApprove() {
        String paymentId = approvedPayment(100_000);
        String key = key("refund-changed");
        assertEquals(202, agentA().submit(key, refund(paymentId, 10_000)).status());

        Agent.Answer selfApproved = agentB().send(request("/api/v1/approvals").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"operation_key\":\"" + key + "\"}")));
        assertEquals(403, selfApproved.status(), "an agent can never approve");
        approve(key);

        Agent.Answer withParameters = agentB().send(request("/api/v1/operations/" + encode(key) + "/resume")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"amount_minor\":90000}")));
        assertEquals(400, withParameters.status());
        assertEquals("resume-takes-no-parameters", withParameters.problem());
        Agent.Answer changed = agentB().submit(key, refund(paymentId, 90_000));
        assertEquals(422, changed.status());
        assertEquals("idempotency-key-reused", changed.problem());
        assertEquals(0, yooKassa.creates("yookassa", Agent.downstream(key)), "nothing was sent for either");

        Agent.Answer resumed = agentB().send(resume(key)); // the recorded, approved intent
        assertEquals(201, resumed.status(), resumed.body());
        assertEquals("100.00", resumed.json().getJsonObject("result").getJsonObject("amount").getString("value"));
    }

    @Test
    void answersBadApprovalRequestsWithClearProblems() {
        String key = key("refund-bad");
        assertEquals(202, agentA().submit(key, refund(approvedPayment(10_000), 1_000)).status());
        assertEquals("fingerprint-mismatch", approver().send(grant("{\"operation_key\":\"" + key + "\",\"request_hash\":\""
                + "0".repeat(64) + "\"}")).problem());
        assertEquals("operation-not-found", approver().send(grant("{\"operation_key\":\"no-such-key\"}")).problem());
        assertEquals("invalid-request", approver().send(grant("{\"operation_key\":\"" + key + "\",\"expires_in_seconds\":5}")).problem());
        assertEquals("malformed-json", approver().send(grant("{")).problem());
        assertEquals("approval-not-found", approver().send(request("/api/v1/approvals/" + UUID.randomUUID())
                .DELETE()).problem());
        String invoice = "test:invoice.create:" + UUID.randomUUID() + ":v1";
        agentA().submit(invoice, Agent.invoice("order-approval", 1000));
        assertEquals("approval-not-required", approver().send(grant("{\"operation_key\":\"" + invoice + "\"}")).problem());
        assertEquals("not-escalated", operator().send(resolve(invoice,
                "{\"outcome\":\"failed_final\",\"reason\":\"x\",\"evidence\":\"y\"}")).problem());
    }

    /** A captured payment of {@code amountMinor} kopecks, made through the gateway with an approval. */
    private String approvedPayment(long amountMinor) {
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
    private String approve(String key) {
        String fingerprint = approver().find(key).json().getString("request_hash");
        Agent.Answer granted = approver().send(grant("{\"operation_key\":\"" + key + "\",\"request_hash\":\"" + fingerprint
                + "\",\"expires_in_seconds\":3600,\"note\":\"checked against the claim\"}"));
        assertEquals(201, granted.status(), granted.body());
        return granted.json().getString("approval_id");
    }

    private void refundBehindTheGatewaysBack(String paymentId, String downstreamKey) {
        String body = "{\"payment_id\":\"" + paymentId + "\",\"amount\":{\"value\":\"100.00\",\"currency\":\"RUB\"},"
                + "\"description\":\"manual\",\"metadata\":{\"gw_key\":\"" + downstreamKey + "\"}}";
        YooKassaDirect.create("refunds", body);
    }

    private static String refund(String paymentId, long amountMinor) {
        return "{\"operation\":\"payment.refund\",\"target\":\"yookassa\",\"payload\":{\"payment_id\":\"" + paymentId
                + "\",\"amount_minor\":" + amountMinor + ",\"currency\":\"RUB\",\"reason\":\"Возврат по претензии\"}}";
    }

    private HttpRequest.Builder traced(HttpRequest.Builder request) {
        return request.header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01");
    }

    private HttpRequest.Builder resume(String key) {
        return request("/api/v1/operations/" + encode(key) + "/resume").POST(HttpRequest.BodyPublishers.noBody());
    }

    private HttpRequest.Builder resolve(String key, String body) {
        return request("/api/v1/operations/" + encode(key) + "/resolve").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpRequest.Builder grant(String body) {
        return request("/api/v1/approvals").header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(MicroDeployment.baseUrl(deployment) + path));
    }

    private Agent agentA() {
        return new Agent(MicroDeployment.baseUrl(deployment), "agent-a");
    }

    private Agent agentB() {
        return new Agent(MicroDeployment.baseUrl(deployment), "agent-b");
    }

    private Agent approver() {
        return new Agent(MicroDeployment.baseUrl(deployment), "approver");
    }

    private Agent operator() {
        return new Agent(MicroDeployment.baseUrl(deployment), "operator");
    }

    private static String key(String intent) {
        return "test:payment.refund:" + intent + "-" + UUID.randomUUID() + ":v1";
    }

    private static String encode(String key) {
        return URLEncoder.encode(key, StandardCharsets.UTF_8);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
