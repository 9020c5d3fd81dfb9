package dev.toolgate.targets.yookassa;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.TargetHttpClient;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Set;

/**
 * What YooKassa's answers mean, by its own handling rules (docs/targets.md): 200 {@code succeeded} → succeeded;
 * 200 {@code pending} / {@code waiting_for_capture} and 202 → pending (look again, never send anything new); 200
 * {@code canceled} → failed for good; 429 → retry later with the same key; other 4xx → failed for good; 500, a
 * timeout or a lost connection → unknown.
 */
final class YooKassaAnswers {

    /** The SDKs' default wait when a 202 names none (yookassa-sdk-php BaseClient). */
    private static final Duration DEFAULT_RETRY_AFTER = Duration.ofMillis(1800);
    private static final Set<String> PENDING = Set.of("pending", "waiting_for_capture");

    private YooKassaAnswers() {
    }

    static Outcome outcomeOf(Exchange exchange) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return Exchange.unanswered(exchange);
        }
        int status = answered.status();
        JsonObject body = TargetHttpClient.jsonObject(answered.body());
        if (status == 200 && body != null && body.get("id") instanceof JsonString id) {
            String state = body.getString("status", "");
            if ("succeeded".equals(state)) {
                return new Outcome.Succeeded(id.getString(), result(body), status);
            }
            if (PENDING.contains(state)) {
                return new Outcome.Pending(id.getString(), null, status);
            }
            if ("canceled".equals(state)) {
                return new Outcome.Rejected("target_canceled", "YooKassa canceled it: " + cancellation(body), status);
            }
        }
        if (status == 200) { // a yes we cannot read: the object may exist, look it up
            return new Outcome.Unknown("unreadable_response", status);
        }
        if (status == 202) { // accepted, not processed yet: the same key again after retry_after
            Duration wait = body != null && body.get("retry_after") instanceof JsonNumber ms
                    ? Duration.ofMillis(ms.longValue()) : DEFAULT_RETRY_AFTER;
            return new Outcome.Pending(null, wait, status);
        }
        if (status == 429) {
            return new Outcome.Transient("target_rate_limited", answered.retryAfter(), status);
        }
        if (status >= 500) { // "the result of the request is unknown"
            return new Outcome.Unknown("target_http_" + status, status);
        }
        String code = body == null ? "" : " (" + body.getString("code", "?")
                + (body.get("parameter") instanceof JsonString p ? ", parameter " + p.getString() : "") + ")";
        return new Outcome.Rejected(status == 401 ? "target_auth_failed" : "target_rejected", "YooKassa answered HTTP " + status + code, status);
    }

    static Lookup lookupOf(JsonObject object) {
        String id = object.getString("id", "?");
        String state = object.getString("status", "");
        if ("succeeded".equals(state)) {
            return new Lookup.Found(id, result(object));
        }
        if ("canceled".equals(state)) {
            return new Lookup.Failed(id, "target_canceled", "YooKassa canceled it: " + cancellation(object));
        }
        return new Lookup.Pending("YooKassa " + id + " is " + state);
    }

    /** What is kept for replay: the provider's status and amount, never the whole provider answer. */
    private static JsonObject result(JsonObject object) {
        JsonObjectBuilder result = JSON.createObjectBuilder().add("status", object.getString("status"));
        if (object.get("amount") instanceof JsonObject amount) {
            result.add("amount", amount);
        }
        if (object.get("payment_id") instanceof JsonString paymentId) {
            result.add("payment_id", paymentId);
        }
        return result.build();
    }

    private static String cancellation(JsonObject object) {
        return object.get("cancellation_details") instanceof JsonObject d ? d.getString("reason", "no reason given") : "no reason given";
    }

    static BigDecimal money(JsonObject amount) {
        return new BigDecimal(amount.getString("value", "0"));
    }

    static JsonObject ok(Exchange exchange) {
        return exchange instanceof Exchange.Answered a && a.status() == 200 ? TargetHttpClient.jsonObject(a.body()) : null;
    }

    static Lookup unavailable(Exchange exchange) {
        return new Lookup.Unavailable(exchange instanceof Exchange.Answered a ? "target_http_" + a.status() : "target_unreachable");
    }
}
