package dev.toolgate.targets.onec;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.TargetHttpClient;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;

/** What 1C's standard OData answers mean. Only the numeric {@code odata.error} code is ever quoted, never its message. */
final class OneCAnswers {

    private OneCAnswers() {
    }

    /** Its reference when 1C shows it; unknown when 1C may have written it. */
    static Outcome outcomeOf(Exchange exchange) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return Exchange.unanswered(exchange);
        }
        int status = answered.status();
        if (status == 200 || status == 201) {
            JsonObject created = TargetHttpClient.jsonObject(answered.body());
            if (created == null || !(created.get("Ref_Key") instanceof JsonString ref)) {
                // 1C said yes but we cannot read which document: it exists, so look it up rather than resend
                return new Outcome.Unknown("unreadable_response", status);
            }
            return new Outcome.Succeeded(ref.getString(), result(created), status);
        }
        if (status == 401) {
            return new Outcome.Rejected("target_auth_failed", "1C refused the gateway's credentials (HTTP 401)", status);
        }
        if (status == 429) { // a rate limiter answers before the request reaches the infobase
            return new Outcome.Transient("target_rate_limited", answered.retryAfter(), status);
        }
        if (status >= 500) {
            // 1C's own 500 ("-1") and a proxy's 502/503/504 alike may follow a written document
            // (docs/targets.md): the conservative reading is unknown, settled by $filter.
            return new Outcome.Unknown("target_http_" + status, status);
        }
        return new Outcome.Rejected("target_rejected", "1C answered HTTP " + status + odataCode(answered.body()), status);
    }

    static JsonObject result(JsonObject document) {
        JsonObjectBuilder result = JSON.createObjectBuilder();
        if (document.get("Number") instanceof JsonString number) {
            result.add("number", number.getString().trim());
        }
        if (document.containsKey("Posted")) {
            result.add("posted", document.getBoolean("Posted", false));
        }
        return result.build();
    }

    static String failureCode(Exchange exchange) {
        if (exchange instanceof Exchange.Answered answered) {
            return "target_http_" + answered.status();
        }
        if (exchange instanceof Exchange.NotSent notSent) {
            return notSent.errorCode();
        }
        if (exchange instanceof Exchange.Lost lost) {
            return lost.errorCode();
        }
        throw new IllegalArgumentException("an exchange this adapter does not know: " + exchange);
    }

    static String odataCode(String body) {
        JsonObject error = TargetHttpClient.jsonObject(body);
        if (error != null && error.get("odata.error") instanceof JsonObject odata
                && odata.get("code") instanceof JsonString code) {
            return " (odata.error code " + code.getString() + ")";
        }
        return "";
    }

    static List<JsonObject> values(String body) {
        JsonObject page = TargetHttpClient.jsonObject(body);
        if (page == null || !(page.get("value") instanceof JsonArray array)) {
            return null;
        }
        return array.stream().filter(v -> v.getValueType() == JsonValue.ValueType.OBJECT)
                .map(JsonValue::asJsonObject).toList();
    }
}
