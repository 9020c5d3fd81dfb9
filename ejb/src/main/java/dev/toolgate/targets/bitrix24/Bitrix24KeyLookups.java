package dev.toolgate.targets.bitrix24;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.TargetHttpClient;
import dev.toolgate.targets.TargetRequest;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Deals looked up by the key they carry in {@code ORIGIN_ID} (with our {@code ORIGINATOR_ID}), by {@code crm.deal.list}:
 * one key at a time, or many to a request by the filter's documented IN prefix, {@code "@ORIGIN_ID": [...]}.
 */
final class Bitrix24KeyLookups {

    /** The characters HTML escapes, as a portal might in what it returns. */
    private static final String ESCAPED = "&<>\"'";

    private final Bitrix24Settings settings;
    private final TargetHttpClient http;
    private final BiFunction<String, JsonObject, TargetRequest> call;

    Bitrix24KeyLookups(Bitrix24Settings settings, TargetHttpClient http, BiFunction<String, JsonObject, TargetRequest> call) {
        this.settings = settings;
        this.http = http;
        this.call = call;
    }

    /**
     * One deal by its key: {@code filter: {ORIGINATOR_ID, ORIGIN_ID}}. A deal is ours when it carries our key as we
     * wrote it; one whose key differs only in case is another key's (the portal's database may compare without case);
     * one carrying anything else cannot be attributed, and a look-up never reads "absent" into what it cannot read.
     */
    Lookup byOrigin(Attempt dispatch) {
        String key = dispatch.downstreamKey();
        Exchange exchange = list(JSON.createObjectBuilder().add("ORIGINATOR_ID", settings.originatorId()).add("ORIGIN_ID", key).build());
        if (!(exchange instanceof Exchange.Answered answered) || answered.status() != 200) {
            return new Lookup.Unavailable(exchange instanceof Exchange.Answered a ? "target_http_" + a.status() : "target_unreachable");
        }
        JsonObject page = TargetHttpClient.jsonObject(answered.body());
        if (page == null || !(page.get("result") instanceof JsonArray deals)) {
            return new Lookup.Unavailable("unreadable_response");
        }
        List<String> ids = new ArrayList<>();
        for (JsonValue value : deals) {
            if (!(value instanceof JsonObject deal)) {
                continue;
            }
            if (deal.get("ORIGIN_ID") instanceof JsonString origin && !origin.getString().equals(key)) {
                if (origin.getString().equalsIgnoreCase(key)) {
                    continue;
                }
                return new Lookup.Unavailable("unreadable_response");
            }
            ids.add(deal.getString("ID", "?")); // a portal that leaves ORIGIN_ID out: its filter's word, as it was asked
        }
        return found(ids);
    }

    /** The deals carrying one key: none → absent, one → found, several → a duplicate happened. */
    private static Lookup found(List<String> ids) {
        if (ids.isEmpty()) {
            return new Lookup.Absent();
        }
        return ids.size() == 1 ? new Lookup.Found(ids.get(0), JsonValue.EMPTY_JSON_OBJECT) : new Lookup.Ambiguous(ids);
    }

    /**
     * Deals looked up by their keys together, at most {@link Bitrix24Settings#lookupBatch} keys a request. A key that
     * another key asked differs from only in case, or that holds a character HTML escapes, is asked alone: what the
     * portal returns for such keys could be credited to the wrong one.
     */
    List<Lookup> lookupAll(List<Attempt> attempts) {
        Lookup[] answers = new Lookup[attempts.size()];
        List<Integer> shared = new ArrayList<>();
        for (int i = 0; i < attempts.size(); i++) {
            if (shareable(attempts.get(i).downstreamKey(), attempts)) {
                shared.add(i);
            } else {
                answers[i] = byOrigin(attempts.get(i));
            }
        }
        for (int from = 0; from < shared.size(); from += settings.lookupBatch()) {
            List<Integer> unit = shared.subList(from, Math.min(shared.size(), from + settings.lookupBatch()));
            List<Attempt> asked = unit.stream().map(attempts::get).toList();
            List<Lookup> found = asked.size() == 1 ? List.of(byOrigin(asked.get(0))) : byOrigins(asked);
            for (int i = 0; i < unit.size(); i++) {
                answers[unit.get(i)] = found.get(i);
            }
        }
        return List.of(answers);
    }

    private static boolean shareable(String key, List<Attempt> attempts) {
        return key.chars().noneMatch(c -> ESCAPED.indexOf(c) >= 0) && attempts.stream().map(Attempt::downstreamKey)
                .noneMatch(other -> !other.equals(key) && other.equalsIgnoreCase(key));
    }

    /**
     * One request for several keys. What says the portal cannot be asked now (no answer, refused credentials, a limit
     * error) is every key's answer. Any other answer that is not one whole page of deals carrying only keys asked (a
     * method error, a 5xx, a body that does not parse, more deals than a page holds: the rest would need
     * {@code start}) has each key asked alone: one key's trouble never holds up the others, and no answer rests on a
     * reading its own look-up would not make.
     */
    private List<Lookup> byOrigins(List<Attempt> asked) {
        JsonArrayBuilder keys = JSON.createArrayBuilder();
        asked.forEach(attempt -> keys.add(attempt.downstreamKey()));
        Exchange exchange = list(JSON.createObjectBuilder().add("ORIGINATOR_ID", settings.originatorId())
                .add("@ORIGIN_ID", keys).build());
        if (!(exchange instanceof Exchange.Answered answered)) {
            return Collections.nCopies(asked.size(), new Lookup.Unavailable("target_unreachable"));
        }
        if (answered.status() == 401 || Bitrix24Answers.limitError(answered)) {
            return Collections.nCopies(asked.size(), new Lookup.Unavailable("target_http_" + answered.status()));
        }
        Map<String, List<String>> byKey = answered.status() == 200 ? byKey(asked, TargetHttpClient.jsonObject(answered.body())) : null;
        if (byKey == null) {
            return asked.stream().map(this::byOrigin).toList();
        }
        return asked.stream().map(attempt -> found(byKey.get(attempt.downstreamKey()))).toList();
    }

    /**
     * The deal ids of each key asked; null when the page is unreadable, is not the whole answer ({@code total} above
     * what it holds), or holds a deal of no key asked or of another originator.
     */
    private Map<String, List<String>> byKey(List<Attempt> asked, JsonObject page) {
        if (page == null || !(page.get("result") instanceof JsonArray deals) || page.containsKey("next")
                || page.getInt("total", deals.size()) != deals.size()) {
            return null;
        }
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        asked.forEach(attempt -> byKey.put(attempt.downstreamKey(), new ArrayList<>()));
        for (JsonValue value : deals) {
            if (!(value instanceof JsonObject deal) || !(deal.get("ID") instanceof JsonString id)
                    || !(deal.get("ORIGIN_ID") instanceof JsonString key) || !byKey.containsKey(key.getString())
                    || !settings.originatorId().equals(deal.getString("ORIGINATOR_ID", null))) {
                return null;
            }
            byKey.get(key.getString()).add(id.getString());
        }
        return byKey;
    }

    private Exchange list(JsonObject filter) {
        return http.send(call.apply("crm.deal.list", JSON.createObjectBuilder().add("filter", filter)
                .add("select", JSON.createArrayBuilder().add("ID").add("ORIGINATOR_ID").add("ORIGIN_ID").add("STAGE_ID").add("DATE_CREATE"))
                .build()));
    }
}
