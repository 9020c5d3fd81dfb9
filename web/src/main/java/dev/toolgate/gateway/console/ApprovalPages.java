package dev.toolgate.gateway.console;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.approval.RefundCoverage;
import dev.toolgate.search.OperationSearch;
import dev.toolgate.operation.OperationView;
import dev.toolgate.search.Standing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The approver's pages. The fingerprint travels in a hidden field of the page that showed it, never typed, so an
 * approval binds the intent the approver saw: a different payload under the key refuses the grant.
 */
final class ApprovalPages {

    /** The validity choices an approver gets, the default first; none longer than the journal allows. */
    static final Map<String, Duration> VALIDITY = new java.util.LinkedHashMap<>();

    static {
        VALIDITY.put("1 hour", Duration.ofHours(1));
        VALIDITY.put("15 minutes", Duration.ofMinutes(15));
        VALIDITY.put("4 hours", Duration.ofHours(4));
        VALIDITY.put("1 day", Duration.ofDays(1));
        VALIDITY.put("7 days", Duration.ofDays(7));
    }

    private ApprovalPages() {
    }

    /** The part of a payload an approver reads first: who or what the money is for. */
    static String recipient(OperationView op) {
        for (String field : List.of("payment_id", "order_id", "deal_id", "invoice_id", "counterparty_inn", "title")) {
            if (op.payload() != null && op.payload().get(field) instanceof jakarta.json.JsonString value) {
                return field + " " + value.getString();
            }
        }
        return "—";
    }

    static Html queue(OperationSearch.Page page, Map<String, ApprovalView> approvals, boolean approved, Map<Standing, Long> counts,
                      Instant now, String flash) {
        Html html = new Html();
        ConsoleViews.flash(html, flash);
        html.raw("<nav aria-label=\"Approvals\"><ul><li>")
                .raw(approved ? "<a href=\"/console/approvals\">" : "<a aria-current=\"page\" href=\"/console/approvals\">")
                .text(counts.get(Standing.AWAITING_APPROVAL) + " waiting for a decision").raw("</a></li><li>")
                .raw(approved ? "<a aria-current=\"page\" href=\"/console/approvals?show=approved\">" : "<a href=\"/console/approvals?show=approved\">")
                .text(counts.get(Standing.AWAITING_CALLER) + " approved, waiting for the agent (revocable)").raw("</a></li></ul></nav>");
        if (page.items().isEmpty()) {
            return html.raw("<p id=\"queue-empty\">").text(approved ? "No approval waits to be used." : "Nothing waits for an approval.").raw("</p>");
        }
        html.raw("<table id=\"approvals\"><caption>").text(approved ? "Approved operations waiting for the agent's next call, oldest first"
                        : "Operations waiting for an approval, oldest first").raw("</caption><thead><tr>")
                .raw("<th scope=\"col\">Waiting</th><th scope=\"col\">Operation</th><th scope=\"col\">Target</th>")
                .raw("<th scope=\"col\" class=\"number\">Amount</th><th scope=\"col\">For</th><th scope=\"col\">Requested by</th>")
                .raw("<th scope=\"col\">Fingerprint</th><th scope=\"col\">Standing</th><th scope=\"col\">Decide</th></tr></thead><tbody>");
        for (OperationView op : page.items()) {
            ApprovalView approval = approvals.get(op.key());
            ApprovalStanding standing = ApprovalStanding.of(op, approval, now);
            html.raw("<tr>").element("td", Html.age(op.createdAt(), now)).element("td", op.operation()).element("td", op.target())
                    .element("td class=\"number\"", Optional.ofNullable(Money.of(op.payload())).orElse("—"))
                    .element("td", recipient(op)).element("td", op.agentId())
                    .raw("<td><code title=\"").text(op.requestHash()).raw("\">").text(op.requestHash().substring(0, 12)).raw("…</code></td>")
                    .element("td", standing == ApprovalStanding.ACTIVE ? "approved by " + approval.grantedBy() + ", waiting for the agent"
                            : "waiting for a decision")
                    .raw("<td>").link("/console/approval?key=" + Html.query(op.key()), "Review " + op.key()).raw("</td></tr>");
        }
        html.raw("</tbody></table>");
        ConsoleViews.pager(html, page, approved ? "/console/approvals?show=approved&" : "/console/approvals?");
        return html;
    }

    static Html decision(OperationView op, ApprovalView approval, Coverage coverage, ConsoleUser user, String csrf, Instant now,
                         String flash) {
        Html html = new Html();
        ConsoleViews.flash(html, flash);
        ApprovalStanding standing = ApprovalStanding.of(op, approval, now);
        html.raw("<section aria-labelledby=\"sent\"><h2 id=\"sent\">What would be sent</h2><dl class=\"facts\">")
                .raw("<dt>Operation</dt><dd id=\"operation\">").text(op.operation()).raw("</dd>")
                .raw("<dt>Target</dt><dd id=\"target\">").text(op.target()).raw("</dd>")
                .raw("<dt>Amount</dt><dd id=\"amount\">").text(Optional.ofNullable(Money.of(op.payload())).orElse("no amount")).raw("</dd>")
                .raw("<dt>For</dt><dd id=\"recipient\">").text(recipient(op)).raw("</dd>")
                .raw("<dt>Requested by</dt><dd id=\"agent\">").text(op.agentId()).raw("</dd>")
                .raw("<dt>Waiting</dt><dd>").text(Html.age(op.createdAt(), now)).raw(" (since ").time(op.createdAt()).raw(")</dd>")
                .raw("<dt>Key</dt><dd><code>").text(op.key()).raw("</code></dd>")
                .raw("<dt>Fingerprint</dt><dd><code id=\"fingerprint\" class=\"fingerprint\">").text(op.requestHash()).raw("</code></dd>")
                .raw("</dl>");
        ConsoleViews.payload(html, op);
        html.raw("</section>");
        if (coverage != null) {
            coverage.render(html);
        }
        html.raw("<section aria-labelledby=\"decision\"><h2 id=\"decision\">Decision</h2>");
        if (standing == ApprovalStanding.ACTIVE) {
            html.raw("<p class=\"banner\" id=\"approved\">Approved by ").text(approval.grantedBy()).raw(" at ").time(approval.grantedAt())
                    .raw(", valid until ").time(approval.expiresAt())
                    .raw(approval.note() == null ? "" : " — “").text(approval.note() == null ? "" : approval.note())
                    .raw(approval.note() == null ? "" : "”").raw(". The agent's next call sends it.</p>");
        }
        if (!user.may(ConsoleAccess.APPROVE)) {
            return html.raw("<p>Your role does not decide approvals.</p></section>");
        }
        if (user.name().equals(op.agentId())) {
            return html.raw("<p class=\"refused\" id=\"own\">You requested this operation: another approver must decide (four eyes).</p></section>");
        }
        if (standing == ApprovalStanding.ACTIVE) {
            html.raw("<form class=\"action\" method=\"post\" action=\"/console/approvals/revoke\" id=\"revoke\">")
                    .hidden(Csrf.FIELD, csrf).hidden("key", op.key()).hidden("approval", approval.id())
                    .raw("<label for=\"revoke-reason\">Reason (kept in the audit trail)</label>")
                    .raw("<input type=\"text\" id=\"revoke-reason\" name=\"reason\" maxlength=\"500\">")
                    .raw("<p><button type=\"submit\" id=\"revoke-button\">Revoke the approval</button> — the operation then fails without being sent.</p></form>");
        } else {
            html.raw("<form class=\"action\" method=\"post\" action=\"/console/approvals/approve\" id=\"approve\">")
                    .hidden(Csrf.FIELD, csrf).hidden("key", op.key()).hidden("fingerprint", op.requestHash())
                    .raw("<label for=\"validity\">Valid for</label><select id=\"validity\" name=\"validity\">");
            VALIDITY.keySet().forEach(choice -> html.raw("<option>").text(choice).raw("</option>"));
            html.raw("</select><label for=\"note\">Note (optional)</label><input type=\"text\" id=\"note\" name=\"note\" maxlength=\"500\">")
                    .raw("<p><button type=\"submit\" id=\"approve-button\">Approve exactly this</button></p></form>");
        }
        html.raw("<form class=\"action\" method=\"post\" action=\"/console/approvals/decline\" id=\"decline\">")
                .hidden(Csrf.FIELD, csrf).hidden("key", op.key()).hidden("fingerprint", op.requestHash())
                .raw("<label for=\"decline-reason\">Reason (kept in the audit trail)</label>")
                .raw("<input type=\"text\" id=\"decline-reason\" name=\"reason\" maxlength=\"500\">")
                .raw("<p><button type=\"submit\" id=\"decline-button\">Decline</button> — nothing is sent; the agent is told it was declined.</p></form>");
        return html.raw("</section>");
    }

    record Coverage(RefundCoverage.Cover cover, String refund) {

        void render(Html html) {
            html.raw("<section aria-labelledby=\"coverage\"><h2 id=\"coverage\">What the payment still covers</h2>");
            if (cover instanceof RefundCoverage.Cover.Unanswered unanswered) {
                html.raw("<p class=\"refused\" id=\"coverage-unknown\">The payment system could not be asked (").text(unanswered.why())
                        .raw("): YooKassa itself refuses a refund the payment no longer covers, and nothing is sent twice.</p></section>");
                return;
            }
            if (!(cover instanceof RefundCoverage.Cover.Covers p)) {
                html.raw("<p class=\"refused\" id=\"coverage-missing\">The payment system knows no such payment: the refund would be refused.</p></section>");
                return;
            }
            html.raw("<dl class=\"facts\" id=\"coverage-facts\"><dt>Payment</dt><dd><code>").text(p.paymentId()).raw("</code> (").text(p.status()).raw(")</dd>")
                    .raw("<dt>Paid</dt><dd>").text(Money.format(p.paid(), p.currency())).raw("</dd>")
                    .raw("<dt>Refunded so far</dt><dd>").text(Money.format(p.refunded(), p.currency())).raw("</dd>")
                    .raw("<dt>Still covers</dt><dd id=\"remaining\">").text(Money.format(p.remaining(), p.currency())).raw("</dd>")
                    .raw("<dt>This refund</dt><dd>").text(refund).raw("</dd></dl></section>");
        }
    }
}
