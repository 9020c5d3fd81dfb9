package dev.toolgate.gateway.console;

import dev.toolgate.escalation.Escalations;
import dev.toolgate.gateway.edge.Inputs;
import dev.toolgate.search.Cursor;
import dev.toolgate.search.OperationRecords;
import dev.toolgate.search.OperationSearch;
import dev.toolgate.search.Standing;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

@ApplicationScoped
public class OperationDesk {

    @Inject
    ConsoleSettings settings;
    @Inject
    OperationRecords records;
    @Inject
    OperationSearch search;
    @Inject
    Escalations escalations;

    void home(ConsoleExchange exchange) throws IOException {
        exchange.show("Console", ConsoleAccess.HOME, OperationPages.home(exchange.user(), search.unfinished(exchange.user().tenant())));
    }

    void escalations(ConsoleExchange exchange) throws IOException {
        exchange.show("Escalations", ConsoleAccess.ESCALATIONS, OperationPages.escalations(search.oldestFirst(exchange.user().tenant(),
                OperationSearch.Query.standing(Standing.ESCALATED), exchange.cursor(), ConsoleExchange.PAGE), exchange.now()));
    }

    void unfinished(ConsoleExchange exchange) throws IOException {
        String tenant = exchange.user().tenant();
        Map<Standing, Long> counts = search.unfinished(tenant);
        Standing shown = exchange.parameter("standing") == null
                ? counts.entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey).findFirst().orElse(null)
                : standing(exchange.parameter("standing"), true);
        OperationSearch.Page page = shown == null ? null
                : search.oldestFirst(tenant, OperationSearch.Query.standing(shown), exchange.cursor(), ConsoleExchange.PAGE);
        exchange.show("Unfinished work", ConsoleAccess.UNFINISHED, OperationPages.unfinished(counts, shown, page,
                page == null ? Set.of() : search.approvedNow(page.items()), exchange.now()));
    }

    /** A query it cannot take answers 400 with the form. */
    void search(ConsoleExchange exchange) throws IOException {
        Map<String, String> form = new LinkedHashMap<>();
        for (String name : new String[] {"key", "trace", "object", "standing", "from", "to"}) {
            String value = exchange.parameter(name);
            if (value != null && !value.isBlank()) {
                form.put(name, value.strip());
            }
        }
        OperationSearch.Page page = null;
        String problem = null;
        if (!form.isEmpty()) {
            try {
                OperationSearch.Query query = new OperationSearch.Query(limited(form.get("key"), "key"), limited(form.get("trace"), "trace id"),
                        limited(form.get("object"), "target object id"),
                        form.containsKey("standing") ? standing(form.get("standing"), false) : null,
                        moment(form.get("from")), moment(form.get("to")));
                page = search.newestFirst(exchange.user().tenant(), query, exchange.cursor(), ConsoleExchange.PAGE);
            } catch (Refusal refusal) {
                problem = refusal.getMessage();
            }
        }
        String query = form.entrySet().stream().map(e -> e.getKey() + "=" + Html.query(e.getValue())).collect(Collectors.joining("&"));
        exchange.show("Search", ConsoleAccess.SEARCH, OperationPages.search(form, page,
                page == null ? Set.of() : search.approvedNow(page.items()), query, problem, exchange.now()), 0, problem == null ? 200 : 400);
    }

    void record(ConsoleExchange exchange) throws IOException {
        OperationRecords.OperationRecord record = record(records, exchange.user(), exchange.parameter("key"));
        exchange.show("Operation " + record.operation().key(), ConsoleAccess.SEARCH,
                OperationPages.record(record, exchange.user(), exchange.csrf(), settings, exchange.now(), exchange.flash()));
    }

    void resolve(ConsoleExchange exchange) {
        ConsoleUser user = exchange.user();
        String key = exchange.key();
        String outcome = exchange.text("outcome", 32, true);
        String evidence = exchange.text("evidence", 2000, true);
        try (Step resolution = Spans.step("toolgate.resolve", new OperationAttributes(user.tenant(), key, null, null))) {
            resolution.set("toolgate.resolved_by", user.name());
            try {
                switch (outcome) {
                    case "succeeded" -> escalations.resolveSucceeded(user.caller(), key, exchange.text("object_id", 255, true), evidence);
                    case "failed_final" -> escalations.resolveFailed(user.caller(), key, exchange.text("reason", 500, true), evidence);
                    default -> throw new Refusal(400, "Say whether it succeeded or failed.");
                }
                resolution.outcome(outcome);
            } catch (RuntimeException e) {
                resolution.threw(e);
                throw e;
            }
        }
        exchange.flash("Resolved " + key + " as " + outcome.replace('_', ' ') + " under your name.");
        exchange.seeOther("/console/operation?key=" + Html.query(key));
    }

    /** By a key that could have been taken: 404 for none. */
    static OperationRecords.OperationRecord record(OperationRecords records, ConsoleUser user, String key) {
        Inputs.key("operation's key", key); // only a key that could have been taken is looked up or shown
        return records.find(user.tenant(), key).orElseThrow(() -> new Refusal(404, "Tenant " + user.tenant() + " has no operation " + key + "."));
    }

    private static Standing standing(String slug, boolean unfinishedOnly) {
        return Arrays.stream(Standing.values()).filter(s -> s.slug().equals(slug) && !(unfinishedOnly && s.finished())).findFirst()
                .orElseThrow(() -> new Refusal(400, "There is no such standing: " + slug + "."));
    }

    private static String limited(String value, String what) {
        if (value != null && value.length() > 255) {
            throw new Refusal(400, "A " + what + " is at most 255 characters.");
        }
        return value;
    }

    /** A {@code datetime-local} value, read as UTC. */
    private static Instant moment(String value) {
        if (value == null) {
            return null;
        }
        try {
            Instant at = LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
            if (Cursor.representable(at)) {
                return at;
            }
        } catch (DateTimeParseException e) {
            // said below
        }
        throw new Refusal(400, "A time is written 2026-12-01T09:30, in the years 1970 to 9999: " + value + " is not one.");
    }
}
