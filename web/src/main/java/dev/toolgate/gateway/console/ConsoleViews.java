package dev.toolgate.gateway.console;

import dev.toolgate.operation.EventView;
import dev.toolgate.search.OperationSearch;
import dev.toolgate.operation.OperationView;
import dev.toolgate.search.Standing;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Pieces several console pages draw the same way: a notice, a pager, a payload, a list of operations, a timeline. */
final class ConsoleViews {

    private ConsoleViews() {
    }

    static void flash(Html html, String flash) {
        if (flash != null) {
            html.raw("<p class=\"banner\" role=\"status\" id=\"flash\">").text(flash).raw("</p>");
        }
    }

    /** "Next page" when there is one; {@code base} ends with ? or &. */
    static void pager(Html html, OperationSearch.Page page, String base) {
        if (page.next() != null) {
            html.raw("<p class=\"pager\">").link(base + "after=" + Html.query(page.next().token()), "Next page →").raw("</p>");
        }
    }

    /** Every field as the journal holds it (what would be, or was, sent), and those withheld from it. */
    static void payload(Html html, OperationView op) {
        html.raw("<table id=\"payload\"><caption>Payload, as sent to ").text(op.target()).raw("</caption><thead><tr>")
                .raw("<th scope=\"col\">Field</th><th scope=\"col\">Value</th></tr></thead><tbody>");
        if (op.payload() != null) {
            for (Map.Entry<String, JsonValue> field : op.payload().entrySet()) {
                html.raw("<tr><th scope=\"row\">").text(field.getKey()).raw("</th><td>")
                        .text(field.getValue() instanceof JsonString s ? s.getString() : field.getValue().toString()).raw("</td></tr>");
            }
        }
        for (String withheld : op.withheldFields()) {
            html.raw("<tr><th scope=\"row\">").text(withheld).raw("</th><td><em>withheld: personal data, sent but never stored</em></td></tr>");
        }
        html.raw("</tbody></table>");
    }

    /** A table of operations, each linked to its record; {@code approved}: the keys among them whose approval stands now. */
    static void operations(Html html, String id, String caption, List<OperationView> operations, java.util.Set<String> approved,
                           Instant now) {
        html.raw("<table id=\"").raw(id).raw("\"><caption>").text(caption).raw("</caption><thead><tr>")
                .raw("<th scope=\"col\">Key</th><th scope=\"col\">Standing</th><th scope=\"col\">Operation</th><th scope=\"col\">Target</th>")
                .raw("<th scope=\"col\">Agent</th><th scope=\"col\">Captured</th><th scope=\"col\">Age</th><th scope=\"col\">Attempts</th>")
                .raw("<th scope=\"col\">Target object</th><th scope=\"col\">Last error</th></tr></thead><tbody>");
        for (OperationView op : operations) {
            html.raw("<tr><td>").link("/console/operation?key=" + Html.query(op.key()), op.key()).raw("</td>")
                    .element("td", Standing.of(op, approved.contains(op.key()), now).words()).element("td", op.operation()).element("td", op.target())
                    .element("td", op.agentId()).raw("<td>").time(op.createdAt()).raw("</td>").element("td", Html.age(op.createdAt(), now))
                    .element("td class=\"number\"", op.attemptCount())
                    .raw("<td><code>").text(op.targetObjectId() == null ? "—" : op.targetObjectId()).raw("</code></td>")
                    .element("td", op.errorCode() == null ? "—" : op.errorCode()).raw("</tr>");
        }
        html.raw("</tbody></table>");
    }

    /** The operation's whole story: every event, oldest first. */
    static void timeline(Html html, List<EventView> events, ConsoleSettings settings) {
        html.raw("<table id=\"timeline\"><caption>Timeline: every event, oldest first</caption><thead><tr>")
                .raw("<th scope=\"col\">When</th><th scope=\"col\">Event</th><th scope=\"col\">Attempt</th><th scope=\"col\">Status after</th>")
                .raw("<th scope=\"col\">Target answered</th><th scope=\"col\">Error class</th><th scope=\"col\">Took</th>")
                .raw("<th scope=\"col\">By</th><th scope=\"col\">Detail</th><th scope=\"col\">Trace</th></tr></thead><tbody>");
        for (EventView event : events) {
            html.raw("<tr><td>").time(event.occurredAt()).raw("</td>").element("td", event.kind().replace('_', ' '))
                    .element("td class=\"number\"", event.attempt() == null ? "" : event.attempt())
                    .element("td", event.status() == null ? "" : event.status())
                    .element("td", event.httpStatus() == null ? "" : "HTTP " + event.httpStatus())
                    .element("td", event.errorClass() == null ? "" : event.errorClass())
                    .element("td class=\"number\"", event.durationMs() == null ? "" : event.durationMs() + " ms")
                    .element("td", event.actor() == null ? "" : event.actor())
                    .element("td", event.detail() == null ? "" : event.detail()).raw("<td>");
            trace(html, event.traceId(), settings);
            html.raw("</td></tr>");
        }
        html.raw("</tbody></table>");
    }

    /** A trace id, linked to the trace backend when one is configured, and to the search of its operations. */
    static void trace(Html html, String traceId, ConsoleSettings settings) {
        if (traceId == null) {
            html.raw("—");
            return;
        }
        html.raw("<code>").link("/console/search?trace=" + Html.query(traceId), traceId).raw("</code>");
        settings.traceLink(traceId).ifPresent(url -> html.raw(" (").link(url, "trace").raw(")"));
    }
}
