package dev.toolgate.targets.onec;

import static dev.toolgate.targets.onec.OneCAnswers.failureCode;
import static dev.toolgate.targets.onec.OneCAnswers.result;
import static dev.toolgate.targets.onec.OneCAnswers.values;
import static dev.toolgate.targets.onec.OneCRequests.condition;
import static dev.toolgate.targets.onec.OneCRequests.filter;

import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.TargetHttpClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Invoices looked up by the key requisite that carries our key: one at a time, or many to a request. */
final class OneCKeyLookups {

    private static final String SELECT = "&$select=Ref_Key,Number,Posted,DeletionMark";
    /**
     * The longest query string a shared look-up sends: under the smallest limit common in front of 1C's publication
     * (IIS's request filtering refuses a query string over 2,048 bytes by default; Apache's request line allows 8,190).
     */
    static final int MAX_QUERY = 2_000;

    private final OneCSettings settings;
    private final TargetHttpClient http;
    private final OneCRequests requests;

    OneCKeyLookups(OneCSettings settings, TargetHttpClient http, OneCRequests requests) {
        this.settings = settings;
        this.http = http;
        this.requests = requests;
    }

    /** One invoice by its key: {@code $filter=<key requisite> eq '<key>'}. */
    Lookup byKey(Attempt dispatch) {
        Exchange exchange = http.send(requests.set(settings.documentSet(),
                filter(settings.keyRequisite(), dispatch.downstreamKey()) + SELECT));
        if (!(exchange instanceof Exchange.Answered answered) || answered.status() != 200) {
            return new Lookup.Unavailable(failureCode(exchange));
        }
        List<JsonObject> documents = values(answered.body());
        return documents == null ? new Lookup.Unavailable("unreadable_response") : found(documents);
    }

    /** The documents carrying one key: none → absent, one → found, several → a duplicate happened. */
    private static Lookup found(List<JsonObject> documents) {
        if (documents.isEmpty()) {
            return new Lookup.Absent();
        }
        if (documents.size() > 1) {
            return new Lookup.Ambiguous(documents.stream().map(d -> d.getString("Ref_Key", "?")).toList());
        }
        return new Lookup.Found(documents.get(0).getString("Ref_Key"), result(documents.get(0)));
    }

    /**
     * Invoices looked up by their keys together: one {@code $filter} of {@code or}-joined conditions per request, at
     * most {@link OneCSettings#lookupBatch} keys and {@value #MAX_QUERY} characters of query string each.
     */
    List<Lookup> lookupAll(List<Attempt> attempts) {
        List<Lookup> answers = new ArrayList<>(attempts.size());
        int base = "$format=json".length() + SELECT.length() + ("," + OneCRequests.encode(settings.keyRequisite())).length()
                + "&$filter=".length();
        int from = 0;
        while (from < attempts.size()) {
            List<String> conditions = new ArrayList<>();
            int length = base;
            int to = from;
            while (to < attempts.size() && conditions.size() < settings.lookupBatch()) {
                String condition = condition(settings.keyRequisite(), attempts.get(to).downstreamKey());
                int grown = length + (conditions.isEmpty() ? 0 : OneCRequests.OR.length()) + condition.length();
                if (!conditions.isEmpty() && grown > MAX_QUERY) {
                    break;
                }
                conditions.add(condition);
                length = grown;
                to++;
            }
            List<Attempt> asked = attempts.subList(from, to);
            answers.addAll(asked.size() == 1 ? List.of(byKey(asked.get(0))) : byKeys(asked, conditions));
            from = to;
        }
        return answers;
    }

    /**
     * One request for several keys. What says the target cannot be asked now (no answer, refused credentials, a rate
     * limit) is every key's answer. Any other answer that is not a readable list of documents carrying only keys asked
     * (a 5xx, a front end's query-length limit, no {@code or}, a body that does not parse) has each key asked alone: one
     * key's trouble never holds up the others, and no answer rests on a reading its own look-up would not make.
     */
    private List<Lookup> byKeys(List<Attempt> asked, List<String> conditions) {
        Exchange exchange = http.send(requests.set(settings.documentSet(), OneCRequests.anyOf(conditions) + SELECT
                + "," + OneCRequests.encode(settings.keyRequisite())));
        if (!(exchange instanceof Exchange.Answered answered) || answered.status() == 401 || answered.status() == 429) {
            return Collections.nCopies(asked.size(), new Lookup.Unavailable(failureCode(exchange)));
        }
        Map<String, List<JsonObject>> byKey = answered.status() == 200 ? byKey(asked, values(answered.body())) : null;
        if (byKey == null) {
            return asked.stream().map(this::byKey).toList();
        }
        return asked.stream().map(attempt -> found(byKey.get(attempt.downstreamKey()))).toList();
    }

    /** The documents of each key asked; null when the list is unreadable or holds a document of no key asked. */
    private Map<String, List<JsonObject>> byKey(List<Attempt> asked, List<JsonObject> documents) {
        if (documents == null) {
            return null;
        }
        Map<String, List<JsonObject>> byKey = new LinkedHashMap<>();
        asked.forEach(attempt -> byKey.put(attempt.downstreamKey(), new ArrayList<>()));
        for (JsonObject document : documents) {
            if (!(document.get(settings.keyRequisite()) instanceof JsonString key) || !(document.get("Ref_Key") instanceof JsonString)
                    || !byKey.containsKey(key.getString())) {
                return null;
            }
            byKey.get(key.getString()).add(document);
        }
        return byKey;
    }
}
