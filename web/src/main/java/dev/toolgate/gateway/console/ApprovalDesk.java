package dev.toolgate.gateway.console;

import dev.toolgate.approval.ApprovalView;
import dev.toolgate.approval.Approvals;
import dev.toolgate.approval.RefundCoverage;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.search.OperationRecords;
import dev.toolgate.search.OperationSearch;
import dev.toolgate.search.Standing;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** Where approvers work: the queue, a decision page, and grant, decline and revoke through the same {@link Approvals} as the API. */
@ApplicationScoped
public class ApprovalDesk {

    @Inject
    OperationRecords records;
    @Inject
    OperationSearch search;
    @Inject
    Approvals approvals;
    @Inject
    RefundCoverage refunds;

    /** {@code GET /console/approvals}, oldest first; {@code ?show=approved}: those approved and not yet called again. */
    void queue(ConsoleExchange exchange) throws IOException {
        ConsoleUser user = exchange.user();
        boolean approved = "approved".equals(exchange.parameter("show"));
        Standing shown = approved ? Standing.AWAITING_CALLER : Standing.AWAITING_APPROVAL;
        OperationSearch.Page page = search.oldestFirst(user.tenant(), OperationSearch.Query.standing(shown), exchange.cursor(),
                ConsoleExchange.PAGE);
        Map<String, ApprovalView> granted = new HashMap<>();
        for (OperationView op : page.items()) {
            if (op.approvalId() != null) { // one primary-key read each, for at most a page
                granted.put(op.key(), approvals.find(user.caller(), op.approvalId()));
            }
        }
        exchange.show("Approvals", ConsoleAccess.APPROVALS, ApprovalPages.queue(page, granted, approved,
                search.unfinished(user.tenant()), exchange.now(), exchange.flash()));
    }

    /** {@code GET /console/approval?key=}: what the approver decides on; once decided, its record. */
    void decision(ConsoleExchange exchange) throws IOException {
        OperationRecords.OperationRecord record = OperationDesk.record(records, exchange.user(), exchange.parameter("key"));
        OperationView op = record.operation();
        if (op.status() != OperationStatus.PENDING_APPROVAL) { // decided meanwhile: its record says how
            exchange.redirect("/console/operation?key=" + Html.query(op.key()));
            return;
        }
        exchange.show("Approve " + op.operation() + "?", ConsoleAccess.APPROVALS, ApprovalPages.decision(op, record.approval(),
                coverage(op), exchange.user(), exchange.csrf(), exchange.now(), exchange.flash()));
    }

    void approve(ConsoleExchange exchange) {
        ConsoleUser user = exchange.user();
        String key = exchange.key();
        Duration validity = Optional.ofNullable(ApprovalPages.VALIDITY.get(exchange.text("validity", 32, true)))
                .orElseThrow(() -> new Refusal(400, "Choose a validity from the list."));
        String fingerprint = exchange.text("fingerprint", 64, true);
        String note = exchange.text("note", 500, false);
        ApprovalView approval = decided(user, key, "grant", () -> approvals.grant(user.caller(), key, fingerprint, validity, note));
        exchange.flash("Approved " + key + " until " + approval.expiresAt() + ". The agent's next call sends it.");
        exchange.seeOther("/console/approvals");
    }

    void decline(ConsoleExchange exchange) {
        ConsoleUser user = exchange.user();
        String key = exchange.key();
        String fingerprint = exchange.text("fingerprint", 64, true);
        String reason = exchange.text("reason", 500, false);
        decided(user, key, "decline", () -> approvals.decline(user.caller(), key, fingerprint, reason));
        exchange.flash("Declined " + key + ": nothing will be sent.");
        exchange.seeOther("/console/approvals");
    }

    void revoke(ConsoleExchange exchange) {
        ConsoleUser user = exchange.user();
        String key = exchange.key();
        String id = exchange.text("approval", 64, true);
        String reason = exchange.text("reason", 500, false);
        decided(user, key, "revoke", () -> approvals.revoke(user.caller(), id, reason));
        exchange.flash("Revoked the approval of " + key + ".");
        exchange.seeOther("/console/operation?key=" + Html.query(key));
    }

    private ApprovalPages.Coverage coverage(OperationView op) {
        return refunds.of(op).map(cover -> new ApprovalPages.Coverage(cover, Money.of(op.payload()))).orElse(null);
    }

    /** A decision as a span naming the operation and who decided, or what refused it. */
    private static <T> T decided(ConsoleUser user, String key, String what, Supplier<T> deciding) {
        try (Step decision = Spans.step("toolgate.approval", new OperationAttributes(user.tenant(), key, null, null))) {
            decision.outcome(what).set("toolgate.approval.decided_by", user.name());
            try {
                return deciding.get();
            } catch (RuntimeException e) {
                decision.threw(e);
                throw e;
            }
        }
    }
}
