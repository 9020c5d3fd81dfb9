package dev.toolgate.it.approvals;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.ApprovalSuite;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.util.UUID;

/**
 * Approvals: only an approver grants one, for the fingerprint it was shown; an approved intent is sent
 * as recorded, never with other parameters; a bad approval request gets a clear problem.
 */
class ApprovalsIT extends ApprovalSuite {

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

    @Test
    void aDeclinedOperationFailsForGoodAndSendsNothing() {
        String key = key("refund-declined");
        assertEquals(202, agentA().submit(key, refund(approvedPayment(10_000), 1_000)).status());
        String fingerprint = approver().find(key).json().getString("request_hash");

        assertEquals(403, agentA().send(decline("{\"operation_key\":\"" + key + "\",\"request_hash\":\"" + fingerprint + "\"}")).status(),
                "an agent cannot decline");
        assertEquals("fingerprint-mismatch", approver().send(decline("{\"operation_key\":\"" + key + "\",\"request_hash\":\""
                + "0".repeat(64) + "\"}")).problem());
        assertEquals("invalid-request", approver().send(decline("{\"operation_key\":\"" + key + "\"}")).problem(), "the fingerprint is required");
        assertEquals("operation-not-found", approver().send(decline("{\"operation_key\":\"no-such-key\",\"request_hash\":\"" + fingerprint
                + "\"}")).problem());
        Agent.Answer declined = approver().send(decline("{\"operation_key\":\"" + key + "\",\"request_hash\":\"" + fingerprint
                + "\",\"reason\":\"the claim was withdrawn\"}"));
        assertEquals(200, declined.status(), declined.body());
        assertEquals("failed_final", declined.json().getString("status"));
        assertEquals("approval_declined", declined.json().getString("error_code"));
        assertEquals("not-awaiting-approval", approver().send(decline("{\"operation_key\":\"" + key + "\",\"request_hash\":\""
                + fingerprint + "\"}")).problem(), "declining twice");

        Agent.Answer next = agentA().submit(key, refund(approver().find(key).json().getJsonObject("payload").getString("payment_id"), 1_000));
        assertEquals("approval-lapsed", next.problem(), next.body());
        assertEquals(true, next.body().contains("declined"), next.body());
        assertEquals(0, yooKassa.creates("yookassa", Agent.downstream(key)), "nothing was ever sent");
    }

    private HttpRequest.Builder decline(String body) {
        return request("/api/v1/approvals/declines").header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    }
}
