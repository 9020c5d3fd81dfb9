package dev.toolgate.targets.yookassa;

import static dev.toolgate.targets.yookassa.YooKassaAnswers.lookupOf;
import static dev.toolgate.targets.yookassa.YooKassaAnswers.ok;
import static dev.toolgate.targets.yookassa.YooKassaAnswers.unavailable;

import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.TargetHttpClient;
import dev.toolgate.targets.TargetRequest;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Payments and refunds found by the key in their {@code metadata}: YooKassa filters no list by metadata, so its list
 * is read — a payment's from a little before the operation was captured, a refund's of its payment — and matched
 * here. Payments looked up together share one such list, from the earliest of them; refunds of one payment share
 * its list.
 */
final class YooKassaKeyLookups {

    /** The {@code metadata} field that carries our key: how a look-up recognises our object. */
    static final String KEY_FIELD = "gw_key";
    /** Look-ups asked together: payments any number to one window's pages, refunds to one list per payment. */
    static final int LOOKUP_BATCH = 20;
    private static final int PAGE = 100;
    /** Past this many pages the look-up gives up as unavailable rather than hold a lease for minutes. */
    private static final int MAX_PAGES = 50;
    private static final String TOO_LARGE = "lookup_window_too_large";
    /** Clocks differ: a payment is looked for from a little before the operation was captured. */
    private static final Duration CLOCK_MARGIN = Duration.ofMinutes(10);

    private final TargetHttpClient http;
    private final Function<String, TargetRequest> get;

    YooKassaKeyLookups(TargetHttpClient http, Function<String, TargetRequest> get) {
        this.http = http;
        this.get = get;
    }

    /** One payment or refund: by the id the provider named, if it did; else by its key in the list. */
    Lookup lookup(Attempt dispatch) {
        String resource = isRefund(dispatch) ? "refunds" : "payments";
        if (dispatch.objectId() != null) { // the provider named it already (a pending answer): ask for it
            Exchange exchange = http.send(get.apply(resource + "/" + encode(dispatch.objectId())));
            JsonObject object = ok(exchange);
            if (object != null) {
                return lookupOf(object);
            }
            if (!(exchange instanceof Exchange.Answered a && a.status() == 404)) {
                return unavailable(exchange);
            }
        }
        String query = isRefund(dispatch) ? refundsOf(dispatch) : createdSince(dispatch.createdAt());
        Listing listing = list(resource, query, List.of(dispatch.downstreamKey()));
        return listing instanceof Listing.Ours ours ? found(ours.byKey().get(dispatch.downstreamKey())) : ((Listing.Failed) listing).why();
    }

    /**
     * Payments or refunds by their keys, all of one operation: those the provider named one by one, the rest from
     * shared lists. Payments share one list from the earliest of them; refunds one list per payment, the list each
     * would read alone. A list that cannot be read now is the answer of every key it was read for, as it would be each
     * one's; a payments window too large for the shared list has each key ask its own, which starts later (a refund's
     * would be the same list).
     */
    List<Lookup> lookupAll(List<Attempt> attempts) {
        List<Attempt> unnamed = attempts.stream().filter(attempt -> attempt.objectId() == null).toList();
        Map<String, Listing> shared = new LinkedHashMap<>(); // by the query each key's own list would send
        if (!unnamed.isEmpty() && isRefund(unnamed.get(0))) {
            Map<String, List<String>> keysByQuery = new LinkedHashMap<>();
            unnamed.forEach(attempt -> keysByQuery.computeIfAbsent(refundsOf(attempt), q -> new ArrayList<>()).add(attempt.downstreamKey()));
            keysByQuery.forEach((query, keys) -> shared.put(query, keys.size() < 2 ? null : list("refunds", query, keys)));
        } else if (unnamed.size() > 1) {
            shared.put("", list("payments", createdSince(unnamed.stream().map(Attempt::createdAt).min(Instant::compareTo).orElseThrow()),
                    unnamed.stream().map(Attempt::downstreamKey).toList()));
        }
        List<Lookup> answers = new ArrayList<>(attempts.size());
        for (Attempt attempt : attempts) {
            Listing listing = attempt.objectId() != null ? null : shared.get(isRefund(attempt) ? refundsOf(attempt) : "");
            if (listing == null || !isRefund(attempt) && listing instanceof Listing.Failed f && TOO_LARGE.equals(f.why().errorCode())) {
                answers.add(lookup(attempt));
            } else if (listing instanceof Listing.Ours ours) {
                List<JsonObject> objects = ours.byKey().get(attempt.downstreamKey());
                answers.add(found(isRefund(attempt) ? objects : since(objects, attempt.createdAt())));
            } else {
                answers.add(((Listing.Failed) listing).why());
            }
        }
        return answers;
    }

    /** What a list said of the keys looked for: each key's objects, or why it could not be read. */
    private sealed interface Listing {
        record Ours(Map<String, List<JsonObject>> byKey) implements Listing {
        }

        record Failed(Lookup.Unavailable why) implements Listing {
        }
    }

    /** The list's pages, cursor by cursor, the objects carrying each of {@code keys} in their metadata kept. */
    private Listing list(String resource, String query, List<String> keys) {
        Map<String, List<JsonObject>> byKey = new LinkedHashMap<>();
        keys.forEach(key -> byKey.put(key, new ArrayList<>()));
        String cursor = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            Exchange exchange = http.send(get.apply(resource + "?" + query + "&limit=" + PAGE + (cursor == null ? "" : "&cursor=" + encode(cursor))));
            JsonObject list = ok(exchange);
            if (list == null || !(list.get("items") instanceof JsonArray items)) {
                return new Listing.Failed((Lookup.Unavailable) unavailable(exchange));
            }
            for (JsonValue item : items) {
                if (item instanceof JsonObject object && object.get("metadata") instanceof JsonObject metadata
                        && metadata.get(KEY_FIELD) instanceof JsonString key && byKey.containsKey(key.getString())) {
                    byKey.get(key.getString()).add(object);
                }
            }
            if (!(list.get("next_cursor") instanceof JsonString next)) {
                return new Listing.Ours(byKey);
            }
            cursor = next.getString();
        }
        return new Listing.Failed(new Lookup.Unavailable(TOO_LARGE));
    }

    /** The objects carrying one key: none → absent, one → as it stands, several → a duplicate happened. */
    private static Lookup found(List<JsonObject> ours) {
        return ours.isEmpty() ? new Lookup.Absent()
                : ours.size() == 1 ? lookupOf(ours.get(0))
                : new Lookup.Ambiguous(ours.stream().map(o -> o.getString("id", "?")).toList());
    }

    /** A refund's list: its payment's refunds. */
    private static String refundsOf(Attempt refund) {
        return "payment_id=" + encode(refund.payload().getString("payment_id"));
    }

    private static String createdSince(Instant createdAt) {
        return "created_at.gte=" + encode(windowStart(createdAt).toString());
    }

    private static Instant windowStart(Instant createdAt) {
        return createdAt.minus(CLOCK_MARGIN).truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * Of a shared list's objects for one key, those its own list would hold: created within its own window. The shared
     * window starts earlier and could reach an object of a key used again after the journal purged the first. One
     * whose creation time does not read is kept: a look-up never reads "absent" into what it cannot read.
     */
    private static List<JsonObject> since(List<JsonObject> objects, Instant createdAt) {
        Instant start = windowStart(createdAt);
        return objects.stream().filter(object -> {
            try {
                return !Instant.parse(object.getString("created_at", "")).isBefore(start);
            } catch (DateTimeParseException e) {
                return true;
            }
        }).toList();
    }

    static boolean isRefund(Attempt dispatch) {
        return "payment.refund".equals(dispatch.operation());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
