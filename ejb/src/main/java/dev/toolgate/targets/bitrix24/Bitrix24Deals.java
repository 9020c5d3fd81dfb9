package dev.toolgate.targets.bitrix24;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.canonical.FieldType;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.Target;
import dev.toolgate.targets.TargetHttpClient;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/** Translates {@code crm.deal.create} into a Bitrix24 deal and back; the only class that knows Bitrix24's fields. */
public final class Bitrix24Deals implements Target {

    /** Documented limit errors: the portal refused the call before running it (Bitrix24 REST limits: QUERY_LIMIT_EXCEEDED and OPERATION_TIME_LIMIT; docs/targets.md). */
    private static final Set<String> LIMITS = Set.of("QUERY_LIMIT_EXCEEDED", "OVERLOAD_LIMIT", "OPERATION_TIME_LIMIT");

    private final Bitrix24Settings settings;
    private final TargetHttpClient http;

    public Bitrix24Deals(Bitrix24Settings settings) {
        this.settings = settings;
        this.http = new TargetHttpClient(settings.connectTimeout(), settings.readTimeout(), settings.tls());
    }

    @Override
    public String system() {
        return "bitrix24";
    }

    @Override
    public Outcome execute(Attempt dispatch) {
        if (dispatch.attempt() > 1) { // ORIGIN_ID is not unique: an earlier attempt may have made the deal
            Outcome earlier = Lookup.beforeResend(lookup(dispatch)); // a duplicate or no answer: do not add
            if (earlier != null) {
                return earlier;
            }
        }
        JsonObject payload = dispatch.payload();
        JsonObjectBuilder fields = JSON.createObjectBuilder()
                .add("TITLE", payload.getString("title"))
                .add("OPPORTUNITY", FieldType.major(payload.getJsonNumber("amount_minor").longValue(), payload.getString("currency")))
                .add("CURRENCY_ID", payload.getString("currency"))
                .add("ORIGINATOR_ID", settings.originatorId())
                .add("ORIGIN_ID", dispatch.downstreamKey());
        if (payload.containsKey("contact_id")) {
            fields.add("CONTACT_ID", payload.getString("contact_id"));
        }
        JsonObject body = JSON.createObjectBuilder().add("fields", fields)
                .add("params", JSON.createObjectBuilder().add("REGISTER_SONET_EVENT", "N")).build();
        return outcomeOf(http.sendEffect(call("crm.deal.add", body), dispatch.gate()));
    }

    @Override
    public Lookup lookup(Attempt dispatch) {
        JsonObject body = JSON.createObjectBuilder()
                .add("filter", JSON.createObjectBuilder().add("ORIGINATOR_ID", settings.originatorId())
                        .add("ORIGIN_ID", dispatch.downstreamKey()))
                .add("select", JSON.createArrayBuilder().add("ID").add("STAGE_ID").add("DATE_CREATE")).build();
        Exchange exchange = http.send(call("crm.deal.list", body));
        if (!(exchange instanceof Exchange.Answered answered) || answered.status() != 200) {
            return new Lookup.Unavailable(exchange instanceof Exchange.Answered a ? "target_http_" + a.status() : "target_unreachable");
        }
        JsonObject page = TargetHttpClient.jsonObject(answered.body());
        if (page == null || !(page.get("result") instanceof JsonArray deals)) {
            return new Lookup.Unavailable("unreadable_response");
        }
        List<String> ids = deals.stream().filter(d -> d.getValueType() == JsonValue.ValueType.OBJECT)
                .map(d -> d.asJsonObject().getString("ID", "?")).toList();
        if (ids.isEmpty()) {
            return new Lookup.Absent();
        }
        return ids.size() == 1 ? new Lookup.Found(ids.get(0), JsonValue.EMPTY_JSON_OBJECT) : new Lookup.Ambiguous(ids);
    }

    private Outcome outcomeOf(Exchange exchange) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return Exchange.unanswered(exchange);
        }
        int status = answered.status();
        JsonObject body = TargetHttpClient.jsonObject(answered.body());
        String error = body == null ? "" : body.getString("error", "");
        if (status == 200 && body != null && body.get("result") instanceof JsonNumber id) {
            return new Outcome.Succeeded(id.toString(), JsonValue.EMPTY_JSON_OBJECT, status);
        }
        if (status == 200) { // the portal said yes without an id: the deal may exist, look it up
            return new Outcome.Unknown("unreadable_response", status);
        }
        if (LIMITS.contains(error)) {
            return new Outcome.Transient("target_rate_limited", answered.retryAfter(), status);
        }
        if (status >= 500) {
            return new Outcome.Unknown("target_http_" + status, status);
        }
        String code = error.isEmpty() ? "" : " (" + error + ")";
        return new Outcome.Rejected(status == 401 ? "target_auth_failed" : "target_rejected",
                "Bitrix24 answered HTTP " + status + code, status);
    }

    private HttpRequest.Builder call(String method, JsonObject body) {
        return HttpRequest.newBuilder(settings.url().resolve(method + ".json"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    }


}
