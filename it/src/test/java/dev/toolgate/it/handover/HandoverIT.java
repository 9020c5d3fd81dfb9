package dev.toolgate.it.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.ApprovalSuite;
import dev.toolgate.it.support.YooKassaDirect;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.util.List;

/**
 * The handover end to end, with two agent identities: agent A's refund is approved and dispatched, the
 * provider commits, the response is lost, A is gone; agent B reads the record and resumes. And the
 * variants: pending, revoked with nothing found, two refunds under one key that only an operator may
 * resolve. The approvals themselves are ApprovalsIT's.
 */
class HandoverIT extends ApprovalSuite {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

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

    private void refundBehindTheGatewaysBack(String paymentId, String downstreamKey) {
        String body = "{\"payment_id\":\"" + paymentId + "\",\"amount\":{\"value\":\"100.00\",\"currency\":\"RUB\"},"
                + "\"description\":\"manual\",\"metadata\":{\"gw_key\":\"" + downstreamKey + "\"}}";
        YooKassaDirect.create("refunds", body);
    }

    private HttpRequest.Builder traced(HttpRequest.Builder request) {
        return request.header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
