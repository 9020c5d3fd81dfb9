package dev.toolgate.gateway.console;

import dev.toolgate.search.OperationRecords;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.operation.EventView;
import dev.toolgate.search.OperationSearch;
import dev.toolgate.operation.OperationView;
import dev.toolgate.search.Standing;
import dev.toolgate.reconcile.ReconcileRuns;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The operator's and auditor's pages: one operation's record, search, unfinished work, escalations, reconcile runs. */
final class OperationPages {

    private OperationPages() {
    }

    static Html home(ConsoleUser user, Map<Standing, Long> unfinished) {
        Html html = new Html().raw("<p>Work waiting in tenant <strong>").text(user.tenant()).raw("</strong>:</p><ul id=\"home-counts\">");
        if (user.may(ConsoleAccess.APPROVALS)) {
            html.raw("<li>").link("/console/approvals", unfinished.get(Standing.AWAITING_APPROVAL) + " waiting for an approval").raw("</li>");
            html.raw("<li>").link("/console/approvals?show=approved", unfinished.get(Standing.AWAITING_CALLER)
                    + " approved, waiting for the agent").raw("</li>");
        }
        if (user.may(ConsoleAccess.ESCALATIONS)) {
            html.raw("<li>").link("/console/escalations", unfinished.get(Standing.ESCALATED) + " escalated to a person").raw("</li>");
            long open = unfinished.values().stream().mapToLong(Long::longValue).sum();
            html.raw("<li>").link("/console/unfinished", open + " unfinished in all").raw("</li>");
        }
        if (user.may(ConsoleAccess.SEARCH)) {
            html.raw("<li>").link("/console/search", "Search the journal").raw("</li>");
        }
        return html.raw("</ul>");
    }

    static Html record(OperationRecords.OperationRecord record, ConsoleUser user, String csrf, ConsoleSettings settings, Instant now, String flash) {
        OperationView op = record.operation();
        Standing standing = Standing.of(op, ApprovalStanding.of(op, record.approval(), now) == ApprovalStanding.ACTIVE, now);
        Html html = new Html();
        ConsoleViews.flash(html, flash);
        html.raw("<p>Standing: <span class=\"standing\" id=\"standing\">").text(standing.words()).raw("</span> (status <code id=\"status\">")
                .text(op.status().dbName()).raw("</code>)</p><dl class=\"facts\" id=\"facts\">")
                .raw("<dt>Key</dt><dd><code id=\"key\">").text(op.key()).raw("</code></dd>")
                .raw("<dt>Operation</dt><dd>").text(op.operation()).raw(" at ").text(op.target()).raw("</dd>")
                .raw("<dt>Amount</dt><dd>").text(Money.of(op.payload()) == null ? "—" : Money.of(op.payload())).raw("</dd>")
                .raw("<dt>Requested by</dt><dd id=\"agent\">").text(op.agentId()).raw("</dd>")
                .raw("<dt>Captured</dt><dd>").time(op.createdAt()).raw(" (").text(Html.age(op.createdAt(), now)).raw(" ago)</dd>")
                .raw("<dt>Last change</dt><dd>").time(op.updatedAt()).raw("</dd>")
                .raw("<dt>Finished</dt><dd>").time(op.completedAt()).raw("</dd>")
                .raw("<dt>Attempts</dt><dd>").text(op.attemptCount()).raw("</dd>")
                .raw("<dt>Look-ups</dt><dd>").text(op.reconcileCount()).raw(op.nextCheckAt() == null ? "" : ", next due ").timeIfAny(op.nextCheckAt()).raw("</dd>")
                .raw("<dt>Lease</dt><dd>").raw(op.leaseUntil() == null ? "none" : "until ").timeIfAny(op.leaseUntil()).raw("</dd>")
                .raw("<dt>Escalated</dt><dd>").time(op.escalatedAt()).raw("</dd>")
                .raw("<dt>Target object</dt><dd><code id=\"target-object\">").text(op.targetObjectId() == null ? "—" : op.targetObjectId()).raw("</code></dd>")
                .raw("<dt>Error</dt><dd id=\"error\">").text(op.errorCode() == null ? "—" : op.errorCode()).raw("</dd>")
                .raw("<dt>Trace</dt><dd id=\"trace\">");
        ConsoleViews.trace(html, op.traceId(), settings);
        html.raw("</dd><dt>Fingerprint</dt><dd><code class=\"fingerprint\">").text(op.requestHash()).raw("</code></dd></dl>");
        ConsoleViews.payload(html, op);
        if (op.result() != null) {
            html.raw("<h2>Stored result</h2><pre id=\"result\"><code>").text(op.result().toString()).raw("</code></pre>");
        }
        approval(html, record.approval(), op);
        List<EventView> lookUps = record.lookUps();
        html.raw("<h2>Look-ups by key</h2>");
        if (lookUps.isEmpty()) {
            html.raw("<p>None: the outcome was never uncertain.</p>");
        } else {
            html.raw("<ol id=\"look-ups\">");
            for (EventView e : lookUps) {
                html.raw("<li>").time(e.occurredAt()).raw(" — ").text(e.kind().replace('_', ' ')).raw(": ").text(e.detail() == null ? "" : e.detail()).raw("</li>");
            }
            html.raw("</ol>");
        }
        List<String> duplicates = record.duplicates();
        if (!duplicates.isEmpty()) {
            html.raw("<p class=\"refused\" id=\"duplicate\">A duplicate effect: ").text(duplicates.size())
                    .raw(" objects at the target carry this key —");
            duplicates.forEach(id -> html.raw(" <code class=\"duplicate-object\">").text(id).raw("</code>"));
            html.raw(". Decide which one stands for this operation, and deal with the other at the target.</p>");
        }
        if (op.escalated() && user.may(ConsoleAccess.RESOLVE)) {
            resolveForm(html, op, duplicates, csrf);
        }
        html.raw("<h2>Timeline</h2>");
        ConsoleViews.timeline(html, record.events(), settings);
        return html;
    }

    private static void approval(Html html, ApprovalView approval, OperationView op) {
        if (!op.approvalRequired()) {
            return;
        }
        html.raw("<h2>Approval</h2>");
        if (approval == null) {
            html.raw("<p id=\"approval\">Needs a person's approval; none granted.</p>");
            return;
        }
        html.raw("<dl class=\"facts\" id=\"approval\"><dt>Standing</dt><dd>").text(approval.standing().dbName()).raw("</dd>")
                .raw("<dt>Granted by</dt><dd id=\"approved-by\">").text(approval.grantedBy()).raw(" at ").time(approval.grantedAt()).raw("</dd>")
                .raw("<dt>Valid until</dt><dd>").time(approval.expiresAt()).raw("</dd>")
                .raw("<dt>For fingerprint</dt><dd><code class=\"fingerprint\">").text(approval.requestHash()).raw("</code></dd>");
        if (approval.note() != null) {
            html.raw("<dt>Note</dt><dd>").text(approval.note()).raw("</dd>");
        }
        if (approval.revokedAt() != null) {
            html.raw("<dt>Revoked</dt><dd>").text(approval.revokedBy()).raw(" at ").time(approval.revokedAt())
                    .raw(approval.revokeReason() == null ? "" : ": ").text(approval.revokeReason() == null ? "" : approval.revokeReason()).raw("</dd>");
        }
        html.raw("</dl>");
    }

    private static void resolveForm(Html html, OperationView op, List<String> duplicates, String csrf) {
        html.raw("<form class=\"action\" method=\"post\" action=\"/console/operation/resolve\" id=\"resolve\"><h2>Resolve</h2>")
                .hidden(Csrf.FIELD, csrf).hidden("key", op.key())
                .raw("<fieldset><legend>What happened at the target</legend>")
                .raw("<p><input type=\"radio\" id=\"outcome-succeeded\" name=\"outcome\" value=\"succeeded\" required>")
                .raw(" <label for=\"outcome-succeeded\">It succeeded: this object is the operation's effect</label></p>")
                .raw("<label for=\"object-id\">Target object id</label>");
        if (!duplicates.isEmpty()) {
            html.raw("<select id=\"object-id\" name=\"object_id\"><option value=\"\">— choose —</option>");
            duplicates.forEach(id -> html.raw("<option>").text(id).raw("</option>"));
            html.raw("</select>");
        } else {
            html.raw("<input type=\"text\" id=\"object-id\" name=\"object_id\" maxlength=\"255\">");
        }
        html.raw("<p><input type=\"radio\" id=\"outcome-failed\" name=\"outcome\" value=\"failed_final\">")
                .raw(" <label for=\"outcome-failed\">It failed: no effect exists, and none will</label></p>")
                .raw("<label for=\"reason\">Reason (for a failure)</label><input type=\"text\" id=\"reason\" name=\"reason\" maxlength=\"500\">")
                .raw("</fieldset><label for=\"evidence\">Evidence (what you checked, where)</label>")
                .raw("<textarea id=\"evidence\" name=\"evidence\" rows=\"3\" maxlength=\"2000\" required></textarea>")
                .raw("<p><button type=\"submit\" id=\"resolve-button\">Resolve under my name</button></p></form>");
    }

    static Html escalations(OperationSearch.Page page, Instant now) {
        Html html = new Html();
        if (page.items().isEmpty()) {
            return html.raw("<p id=\"escalations-empty\">Nothing is escalated.</p>");
        }
        ConsoleViews.operations(html, "escalations", "Escalated operations, oldest first: open one to see its evidence and resolve it",
                page.items(), Set.of(), now);
        ConsoleViews.pager(html, page, "/console/escalations?");
        return html;
    }

    static Html unfinished(Map<Standing, Long> counts, Standing shown, OperationSearch.Page page, Set<String> approved, Instant now) {
        Html html = new Html().raw("<table id=\"unfinished-counts\"><caption>Unfinished operations of this tenant, by standing")
                .raw(" (the metric <code>toolgate_operations_unfinished</code> counts the same, all tenants together)</caption>")
                .raw("<thead><tr><th scope=\"col\">Standing</th><th scope=\"col\" class=\"number\">Operations</th>")
                .raw("<th scope=\"col\">Metric status</th></tr></thead><tbody>");
        counts.forEach((standing, count) -> html.raw("<tr><th scope=\"row\">")
                .link("/console/unfinished?standing=" + standing.slug(), standing.words()).raw("</th>")
                .raw("<td class=\"number\" id=\"count-").raw(standing.slug()).raw("\">").text(count).raw("</td><td><code>")
                .text(standing.metricStatus()).raw("</code></td></tr>"));
        html.raw("</tbody></table>");
        if (shown != null) {
            html.raw("<h2>").text(shown.words()).raw("</h2>");
            ConsoleViews.operations(html, "unfinished", "Oldest first", page.items(), approved, now);
            ConsoleViews.pager(html, page, "/console/unfinished?standing=" + shown.slug() + "&");
        }
        return html;
    }

    static Html search(Map<String, String> form, OperationSearch.Page page, Set<String> approved, String query, String problem,
                       Instant now) {
        Html html = new Html().raw("<form class=\"search\" method=\"get\" action=\"/console/search\" role=\"search\">");
        field(html, "key", "Key", form);
        field(html, "trace", "Trace id", form);
        field(html, "object", "Target object id", form);
        html.raw("<p><label for=\"standing\">Standing</label><select id=\"standing\" name=\"standing\"><option value=\"\">any</option>");
        for (Standing standing : Standing.values()) {
            html.raw(standing.slug().equals(form.get("standing")) ? "<option selected value=\"" : "<option value=\"").raw(standing.slug())
                    .raw("\">").text(standing.words()).raw("</option>");
        }
        html.raw("</select></p>");
        html.raw("<p><label for=\"from\">Captured from (UTC)</label><input type=\"datetime-local\" id=\"from\" name=\"from\" value=\"")
                .text(form.getOrDefault("from", "")).raw("\"></p><p><label for=\"to\">until (UTC)</label>")
                .raw("<input type=\"datetime-local\" id=\"to\" name=\"to\" value=\"").text(form.getOrDefault("to", "")).raw("\"></p>")
                .raw("<p><button type=\"submit\" id=\"search-button\">Search</button></p></form>");
        if (problem != null) {
            return html.raw("<p class=\"refused\" role=\"alert\" id=\"search-problem\">").text(problem).raw("</p>");
        }
        if (page == null) {
            return html;
        }
        if (page.items().isEmpty()) {
            return html.raw("<p id=\"no-results\">No operation of this tenant matches.</p>");
        }
        ConsoleViews.operations(html, "results", "Matching operations, newest first", page.items(), approved, now);
        ConsoleViews.pager(html, page, "/console/search?" + query + "&");
        return html;
    }

    private static void field(Html html, String name, String label, Map<String, String> form) {
        html.raw("<p><label for=\"").raw(name).raw("\">").text(label).raw("</label><input type=\"text\" id=\"").raw(name)
                .raw("\" name=\"").raw(name).raw("\" maxlength=\"255\" value=\"").text(form.getOrDefault(name, "")).raw("\"></p>");
    }

    static Html reconcile(ReconcileRuns.Run run, long requested, ConsoleUser user, String csrf) {
        Html html = new Html();
        if (user.may(ConsoleAccess.START_RECONCILE)) {
            html.raw("<form class=\"action\" method=\"post\" action=\"/console/reconcile\" id=\"start\">").hidden(Csrf.FIELD, csrf)
                    .raw("<p>A run looks up every unknown operation that is due, now, on this instance — every tenant's, as the ")
                    .raw("scheduled runs do; its counts here are of your tenant's operations only.</p>")
                    .raw("<button type=\"submit\" id=\"start-button\">Start a reconcile run</button></form>");
        }
        if (requested < 0) {
            return html;
        }
        if (run == null) {
            return html.raw("<p class=\"refused\" id=\"run-missing\">This instance knows no run ").text(requested)
                    .raw(" (run ids are per instance).</p>");
        }
        html.raw("<h2>Run ").text(run.executionId()).raw("</h2><dl class=\"facts\" id=\"run\"><dt>Status</dt><dd id=\"run-status\">")
                .text(run.status()).raw("</dd><dt>Started</dt><dd>").time(run.startedAt()).raw("</dd><dt>Ended</dt><dd>")
                .time(run.endedAt()).raw("</dd></dl><table id=\"run-counts\"><caption>What the run did</caption><thead><tr>")
                .raw("<th scope=\"col\">Outcome</th><th scope=\"col\" class=\"number\">Operations</th></tr></thead><tbody>");
        run.counts().forEach((outcome, count) -> html.raw("<tr><th scope=\"row\">").text(outcome.replace('_', ' '))
                .raw("</th><td class=\"number\" id=\"run-").text(outcome).raw("\">").text(count).raw("</td></tr>"));
        return html.raw("</tbody></table>");
    }

    static boolean running(ReconcileRuns.Run run) {
        return run != null && run.endedAt() == null;
    }
}
