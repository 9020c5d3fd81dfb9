package dev.toolgate.targets.bitrix24;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.targets.TargetUnanswered;
import dev.toolgate.canonical.FieldType;
import dev.toolgate.targets.AnnouncedObjects;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.Target;
import dev.toolgate.targets.TargetHttpClient;
import dev.toolgate.targets.TargetRequest;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code crm.deal.create} and {@code crm.deal.lose} (the compensation: never deleted); with {@link Bitrix24KeyLookups} and
 * {@link Bitrix24Answers}, the only classes that know Bitrix24's fields.
 */
public final class Bitrix24Deals implements Target, AnnouncedObjects {

    private final Bitrix24Settings settings;
    private final TargetHttpClient http;
    private final Bitrix24KeyLookups deals;

    public Bitrix24Deals(Bitrix24Settings settings) {
        this.settings = settings;
        this.http = new TargetHttpClient(settings.connectTimeout(), settings.readTimeout(), settings.tls());
        this.deals = new Bitrix24KeyLookups(settings, http, this::call);
    }

    @Override
    public String system() {
        return "bitrix24";
    }

    @Override
    public Outcome execute(Attempt dispatch) {
        return switch (dispatch.operation()) {
            case "crm.deal.create" -> create(dispatch);
            case "crm.deal.lose" -> lose(dispatch);
            default -> throw new IllegalArgumentException("an operation this adapter does not serve: " + dispatch.operation());
        };
    }

    @Override
    public Lookup lookup(Attempt dispatch) {
        return switch (dispatch.operation()) {
            case "crm.deal.create" -> deals.byOrigin(dispatch);
            case "crm.deal.lose" -> byStage(dispatch);
            default -> throw new IllegalArgumentException("an operation this adapter does not serve: " + dispatch.operation());
        };
    }

    private Outcome create(Attempt dispatch) {
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

    /**
     * Every attempt reads the deal first: the update replaces {@code COMMENTS}, and a deal already in the lost stage
     * is the effect, written no more. A failed read sent nothing: transient.
     */
    private Outcome lose(Attempt dispatch) {
        String id = dispatch.payload().getString("deal_id");
        Exchange read = http.send(call("crm.deal.get", JSON.createObjectBuilder().add("id", id).build()));
        if (read instanceof Exchange.Answered a && notFound(a)) {
            return new Outcome.Rejected("deal_not_found", "Bitrix24 has no such deal (HTTP 400 Not found)", a.status());
        }
        if (read instanceof Exchange.Answered a && a.status() == 401) {
            return new Outcome.Rejected("target_auth_failed", "Bitrix24 answered HTTP 401", 401);
        }
        JsonObject deal = deal(read);
        if (deal == null) { // a read changes nothing, and the update was not sent: safe to try again
            return read instanceof Exchange.Answered a ? new Outcome.Transient("precondition_unavailable", a.retryAfter(), a.status())
                    : new Outcome.Transient("precondition_unavailable", null, null);
        }
        if (settings.lostStage().equals(deal.getString("STAGE_ID", null))) {
            return new Outcome.Succeeded(id, stage(settings.lostStage()), 200);
        }
        JsonObjectBuilder fields = JSON.createObjectBuilder().add("STAGE_ID", settings.lostStage());
        if (dispatch.payload().containsKey("reason")) {
            String comments = deal.getString("COMMENTS", "");
            String note = "Toolgate: " + dispatch.payload().getString("reason");
            fields.add("COMMENTS", comments.isBlank() ? note : comments + "\n" + note);
        }
        JsonObject body = JSON.createObjectBuilder().add("id", id).add("fields", fields)
                .add("params", JSON.createObjectBuilder().add("REGISTER_SONET_EVENT", "N")).build();
        Exchange updated = http.sendEffect(call("crm.deal.update", body), dispatch.gate());
        if (updated instanceof Exchange.Answered a && a.status() == 200) {
            JsonObject answer = TargetHttpClient.jsonObject(a.body());
            if (answer == null || answer.get("result") != JsonValue.TRUE) {
                return new Outcome.Unknown("unreadable_response", 200); // a yes we cannot read: looked up by its stage
            }
            return verifiedLost(id);
        }
        if (updated instanceof Exchange.Answered a && notFound(a)) {
            return new Outcome.Rejected("deal_not_found", "Bitrix24 has no such deal (HTTP 400 Not found)", a.status());
        }
        return outcomeOf(updated);
    }

    /**
     * Bitrix24 answers {@code true} to a stage outside the deal's pipeline without moving it, so the deal is read back:
     * only the lost stage is the effect; elsewhere is a refusal for a person; a failed read is left to the look-up.
     */
    private Outcome verifiedLost(String id) {
        JsonObject deal = deal(http.send(call("crm.deal.get", JSON.createObjectBuilder().add("id", id).build())));
        if (deal == null) {
            return new Outcome.Unknown("unverified_stage", 200);
        }
        if (settings.lostStage().equals(deal.getString("STAGE_ID"))) {
            return new Outcome.Succeeded(id, stage(settings.lostStage()), 200);
        }
        return new Outcome.Rejected("lost_stage_not_applied", "Bitrix24 took the update but the deal stays in stage "
                + deal.getString("STAGE_ID") + ": is toolgate.target.bitrix24.lost-stage (" + settings.lostStage()
                + ") the lost stage of the deal's pipeline?", 200);
    }

    /** A lost deal's event names the deal, whose key is the create's: only creates are matched to their events. */
    @Override
    public Set<String> announcedOperations() {
        return Set.of("crm.deal.create");
    }

    /**
     * An outbound event names a deal by its ID: ours carry our originator id and our key in {@code ORIGIN_ID}
     * ({@code crm.deal.get}). A deal another source made, or none, is not ours.
     */
    @Override
    public Optional<String> downstreamKeyOf(String kind, String objectId) {
        Exchange read = http.send(call("crm.deal.get", JSON.createObjectBuilder().add("id", objectId).build()));
        if (read instanceof Exchange.Answered a && notFound(a)) {
            return Optional.empty();
        }
        JsonObject deal = deal(read);
        if (deal == null) {
            throw new TargetUnanswered(failureCode(read));
        }
        return settings.originatorId().equals(deal.getString("ORIGINATOR_ID", null)) && deal.get("ORIGIN_ID") instanceof JsonString key
                ? Optional.of(key.getString()) : Optional.empty();
    }

    private Lookup byStage(Attempt dispatch) {
        String id = dispatch.payload().getString("deal_id");
        Exchange read = http.send(call("crm.deal.get", JSON.createObjectBuilder().add("id", id).build()));
        if (read instanceof Exchange.Answered a && notFound(a)) {
            return new Lookup.Failed(id, "deal_not_found", "Bitrix24 has no such deal (HTTP 400 Not found)");
        }
        if (!(read instanceof Exchange.Answered answered) || answered.status() != 200) {
            return new Lookup.Unavailable(failureCode(read));
        }
        JsonObject deal = deal(read);
        if (deal == null) {
            return new Lookup.Unavailable("unreadable_response");
        }
        return settings.lostStage().equals(deal.getString("STAGE_ID")) ? new Lookup.Found(id, stage(settings.lostStage()))
                : new Lookup.Absent();
    }

    private static JsonObject deal(Exchange read) {
        if (!(read instanceof Exchange.Answered a) || a.status() != 200) {
            return null;
        }
        JsonObject answer = TargetHttpClient.jsonObject(a.body());
        return answer != null && answer.get("result") instanceof JsonObject deal && deal.get("STAGE_ID") instanceof JsonString
                ? deal : null;
    }

    /** crm.deal.get and crm.deal.update answer an unknown id with 400 "Not found" (b24-rest-docs crm-deal-update.md). */
    private static boolean notFound(Exchange.Answered answered) {
        JsonObject body = TargetHttpClient.jsonObject(answered.body());
        return answered.status() == 400 && body != null && "Not found".equals(body.getString("error_description", null));
    }

    private static JsonObject stage(String stageId) {
        return JSON.createObjectBuilder().add("stage_id", stageId).build();
    }

    private static String failureCode(Exchange exchange) {
        if (exchange instanceof Exchange.Answered answered) {
            return "target_http_" + answered.status();
        }
        return exchange instanceof Exchange.NotSent notSent ? notSent.errorCode()
                : exchange instanceof Exchange.Lost lost ? lost.errorCode() : "target_unreachable";
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
        if (Bitrix24Answers.LIMITS.contains(error)) {
            return new Outcome.Transient("target_rate_limited", answered.retryAfter(), status);
        }
        if (status >= 500) {
            return new Outcome.Unknown("target_http_" + status, status);
        }
        String code = error.isEmpty() ? "" : " (" + error + ")";
        return new Outcome.Rejected(status == 401 ? "target_auth_failed" : "target_rejected",
                "Bitrix24 answered HTTP " + status + code, status);
    }

    /** Deals by their keys, many to a request ({@link Bitrix24KeyLookups#lookupAll}); a lost deal's stage one by one. */
    @Override
    public int lookupBatch(String operation) {
        return "crm.deal.create".equals(operation) ? settings.lookupBatch() : 1;
    }

    @Override
    public List<Lookup> lookupAll(List<Attempt> attempts) {
        if (attempts.stream().allMatch(attempt -> "crm.deal.create".equals(attempt.operation()))) {
            return deals.lookupAll(attempts);
        }
        return Target.super.lookupAll(attempts);
    }

    private TargetRequest call(String method, JsonObject body) {
        return TargetRequest.post(settings.url().resolve(method + ".json"), body.toString())
                .header("Content-Type", "application/json");
    }

    @Override
    public void close() {
        http.close();
    }
}
