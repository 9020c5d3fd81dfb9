package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Role;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.approval.RefundCoverage;
import dev.toolgate.search.OperationSearch;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The approver's decision page ({@link ApprovalPages#decision}) as drawn: what would be sent, escaped; the forms
 * binding the fingerprint shown and the session's token; no decision for the requester or a role that does not decide.
 */
class ApprovalPagesTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    private static final String CSRF = "c5rf-t0ken_of-the-session";
    private static final String HOSTILE = "<script>alert(\"pwned\")</script> it's \"quoted\"";

    private static final ConsoleUser APPROVER = user("bob", Role.APPROVER);

    @Test
    void escapesEverythingThePayloadCarries() {
        JsonObject payload = Json.createObjectBuilder().add("payment_id", "pay-\"1'<b>").add("amount_minor", 25_000).add("currency", "RUB")
                .add("reason", HOSTILE).add("<img src=x onerror=alert(1)>", "field name from an agent").build();
        String page = decision(refund(payload, "agent-a"), null, null, APPROVER);
        assertFalse(page.contains("<script>"), page);
        assertFalse(page.contains("<img"), page);
        assertFalse(page.contains("<b>"), page);
        assertTrue(page.contains("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; it&#39;s &quot;quoted&quot;"), page);
        assertTrue(page.contains("payment_id pay-&quot;1&#39;&lt;b&gt;"), "the recipient line too: " + page);
    }

    @Test
    void escapesTheAgentsNameAndTheKey() {
        OperationView op = refund(payload(), "agent\"><script>x</script>");
        String page = decision(op, null, null, APPROVER);
        assertFalse(page.contains("<script>"), page);
        assertTrue(page.contains("agent&quot;&gt;&lt;script&gt;"), page);
    }

    @Test
    void bindsTheApprovalToTheFingerprintShownAndTheSessionsToken() {
        String page = decision(refund(payload(), "agent-a"), null, null, APPROVER);
        String approve = form(page, "approve");
        assertTrue(approve.contains("<input type=\"hidden\" name=\"fingerprint\" value=\"" + HASH + "\">"), approve);
        assertTrue(approve.contains("<input type=\"hidden\" name=\"csrf\" value=\"" + CSRF + "\">"), approve);
        assertTrue(approve.contains("<input type=\"hidden\" name=\"key\" value=\"test:refund:1:v1\">"), approve);
        assertTrue(approve.contains("id=\"approve-button\""), approve);
        assertTrue(page.contains("<code id=\"fingerprint\" class=\"fingerprint\">" + HASH + "</code>"), "shown as well as sent");
    }

    @Test
    void declinesTheFingerprintShownWithTheSessionsToken() {
        String decline = form(decision(refund(payload(), "agent-a"), null, null, APPROVER), "decline");
        assertTrue(decline.contains("name=\"fingerprint\" value=\"" + HASH + "\""), decline);
        assertTrue(decline.contains("name=\"csrf\" value=\"" + CSRF + "\""), decline);
        assertTrue(decline.contains("id=\"decline-button\""), decline);
    }

    @Test
    void offersTheValidityChoicesLongestSevenDays() {
        String approve = form(decision(refund(payload(), "agent-a"), null, null, APPROVER), "approve");
        for (String choice : ApprovalPages.VALIDITY.keySet()) {
            assertTrue(approve.contains("<option>" + choice + "</option>"), choice);
        }
        assertTrue(ApprovalPages.VALIDITY.values().stream().allMatch(d -> d.compareTo(dev.toolgate.approval.Approvals.MAX_VALIDITY) <= 0));
    }

    @Test
    void givesTheRequesterNoDecisionFourEyes() {
        ConsoleUser requester = user("agent-a", Role.APPROVER);
        String page = decision(refund(payload(), "agent-a"), null, null, requester);
        assertTrue(page.contains("id=\"own\""), page);
        assertNoDecision(page);
    }

    @Test
    void givesAnAuditorNoDecision() {
        String page = decision(refund(payload(), "agent-a"), null, null, user("carol", Role.AUDITOR));
        assertTrue(page.contains("Your role does not decide approvals."), page);
        assertNoDecision(page);
    }

    @Test
    void givesAnOperatorNoDecision() {
        assertNoDecision(decision(refund(payload(), "agent-a"), null, null, user("dave", Role.OPERATOR)));
    }

    @Test
    void offersToRevokeAnApprovalNotYetUsedAndStillToDecline() {
        ApprovalView granted = new ApprovalView("appr-1", "acme", "test:refund:1:v1", HASH, "erin", NOW.minusSeconds(60),
                NOW.plus(Duration.ofHours(1)), "checked <with> finance", null, null, null, ApprovalStanding.ACTIVE);
        String page = decision(refund(payload(), "agent-a", "appr-1"), granted, null, APPROVER);
        assertTrue(page.contains("id=\"approved\">Approved by erin"), page);
        assertTrue(page.contains("checked &lt;with&gt; finance"), page);
        assertFalse(page.contains("id=\"approve-button\""), "approving twice is not offered");
        String revoke = form(page, "revoke");
        assertTrue(revoke.contains("name=\"approval\" value=\"appr-1\""), revoke);
        assertTrue(revoke.contains("name=\"csrf\" value=\"" + CSRF + "\""), revoke);
        assertTrue(page.contains("id=\"decline-button\""), page);
    }

    @Test
    void showsWhatTheRefundsPaymentStillCovers() {
        ApprovalPages.Coverage coverage = new ApprovalPages.Coverage(new RefundCoverage.Cover.Covers("pay-1", "succeeded",
                new BigDecimal("1000.00"), new BigDecimal("300.00"), "RUB"), "250.00 RUB");
        String page = decision(refund(payload(), "agent-a"), null, coverage, APPROVER);
        assertTrue(page.contains("<dd id=\"remaining\">700.00 RUB</dd>"), page);
        assertTrue(page.contains("<dd>1,000.00 RUB</dd>") && page.contains("<dd>300.00 RUB</dd>"), page);
        assertTrue(page.contains("<dd>250.00 RUB</dd>"), "the refund asked for, beside it: " + page);
        assertTrue(page.contains("<code>pay-1</code> (succeeded)"), page);
    }

    @Test
    void saysWhenThePaymentSystemKnowsNoSuchPayment() {
        String page = decision(refund(payload(), "agent-a"), null, new ApprovalPages.Coverage(new RefundCoverage.Cover.NoSuchPayment(), "250.00 RUB"), APPROVER);
        assertTrue(page.contains("id=\"coverage-missing\""), page);
    }

    @Test
    void saysWhenThePaymentSystemCouldNotBeAsked() {
        String page = decision(refund(payload(), "agent-a"), null,
                new ApprovalPages.Coverage(new RefundCoverage.Cover.Unanswered("yookassa answered <503>"), "250.00 RUB"), APPROVER);
        assertTrue(page.contains("id=\"coverage-unknown\""), page);
        assertTrue(page.contains("yookassa answered &lt;503&gt;"), page);
        assertTrue(page.contains("id=\"approve-button\""), "the cover is checked again before sending: the approver may still decide");
    }

    @Test
    void listsTheQueueEscapedWithALinkToEachDecision() {
        OperationView op = refund(payload(), "agent<x>");
        String queue = ApprovalPages.queue(new OperationSearch.Page(List.of(op), null), Map.of(), false, counts(1, 0), NOW, null).toString();
        assertTrue(queue.contains("href=\"/console/approval?key=test%3Arefund%3A1%3Av1\""), queue);
        assertTrue(queue.contains("agent&lt;x&gt;") && !queue.contains("agent<x>"), queue);
        assertTrue(queue.contains("250.00 RUB"), queue);
        assertTrue(queue.contains("waiting for a decision"), queue);
    }

    @Test
    void theQueueOfApprovedOperationsSaysWhoApprovedAndLinksBackToTheOthers() {
        OperationView op = refund(payload(), "agent-a");
        String queue = ApprovalPages.queue(new OperationSearch.Page(List.of(op), null), Map.of(), true, counts(3, 1), NOW, null).toString();
        assertTrue(queue.contains("3 waiting for a decision"), queue);
        assertTrue(queue.contains("aria-current=\"page\" href=\"/console/approvals?show=approved\">1 approved"), queue);
        assertTrue(queue.contains("waiting for the agent's next call") || queue.contains("waiting for the agent&#39;s next call"), queue);
    }

    private static Map<dev.toolgate.search.Standing, Long> counts(long awaiting, long approved) {
        return Map.of(dev.toolgate.search.Standing.AWAITING_APPROVAL, awaiting, dev.toolgate.search.Standing.AWAITING_CALLER, approved);
    }

    private static void assertNoDecision(String page) {
        assertFalse(page.contains("<form"), page);
        assertFalse(page.contains("<button"), page);
        assertFalse(page.contains(CSRF), "no form, so no token on the page: " + page);
    }

    /** The form with {@code id}, from its start tag to its end tag. */
    private static String form(String page, String id) {
        int start = page.indexOf("<form class=\"action\" method=\"post\" action=\"/console/approvals/" + id + "\" id=\"" + id + "\">");
        assertTrue(start >= 0, "no " + id + " form in " + page);
        return page.substring(start, page.indexOf("</form>", start));
    }

    private static String decision(OperationView op, ApprovalView approval, ApprovalPages.Coverage coverage, ConsoleUser user) {
        return ApprovalPages.decision(op, approval, coverage, user, CSRF, NOW, null).toString();
    }

    private static JsonObject payload() {
        return Json.createObjectBuilder().add("payment_id", "pay-1").add("amount_minor", 25_000).add("currency", "RUB")
                .add("reason", "Возврат").build();
    }

    private static OperationView refund(JsonObject payload, String agent) {
        return refund(payload, agent, null);
    }

    private static OperationView refund(JsonObject payload, String agent, String approvalId) {
        return new OperationView("acme", "test:refund:1:v1", agent, "payment.refund", "yookassa", OperationStatus.PENDING_APPROVAL, HASH,
                payload, List.of(), null, null, null, 0, null, 0, null, 0, null, null, NOW.minusSeconds(300), NOW.minusSeconds(300), null,
                "4bf92f3577b34da6a3ce929d0e0e4736", null, true, approvalId);
    }

    private static ConsoleUser user(String name, Role... roles) {
        return new ConsoleUser(name, "acme", Set.of(roles), NOW.minusSeconds(600));
    }
}
