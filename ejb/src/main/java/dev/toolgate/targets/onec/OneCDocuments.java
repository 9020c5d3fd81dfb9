package dev.toolgate.targets.onec;

import static dev.toolgate.canonical.Jsons.JSON;
import static dev.toolgate.targets.onec.OneCAnswers.failureCode;
import static dev.toolgate.targets.onec.OneCAnswers.odataCode;
import static dev.toolgate.targets.onec.OneCAnswers.outcomeOf;
import static dev.toolgate.targets.onec.OneCAnswers.result;
import static dev.toolgate.targets.onec.OneCAnswers.values;
import static dev.toolgate.targets.onec.OneCRequests.encode;
import static dev.toolgate.targets.onec.OneCRequests.filter;

import dev.toolgate.canonical.FieldType;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.Target;
import dev.toolgate.targets.TargetHttpClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Translates the invoice operations into 1C: create, post, and cancel (a status, never a deletion or a deletion
 * mark). With {@link OneCRequests} and {@link OneCAnswers}, the only classes that know 1C's shapes.
 */
public final class OneCDocuments implements Target {

    private static final DateTimeFormatter ONE_C_DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");
    /** The independent information register of document statuses: one record per document, replaced on write. */
    static final String STATUS_REGISTER = "InformationRegister_СтатусыДокументов";
    private static final String TYPE_PREFIX = "StandardODATA.";
    private static final String CANCELLED = "Отменен";
    private static final JsonObject CANCELLED_RESULT = JSON.createObjectBuilder().add("status", "cancelled").build();

    private final OneCSettings settings;
    private final TargetHttpClient http;
    private final OneCRequests requests;
    private final OneCKeyLookups invoices;

    public OneCDocuments(OneCSettings settings) {
        this.settings = settings;
        this.http = new TargetHttpClient(settings.connectTimeout(), settings.readTimeout(), settings.tls());
        this.requests = new OneCRequests(settings);
        this.invoices = new OneCKeyLookups(settings, http, requests);
    }

    @Override
    public String system() {
        return "1c";
    }

    @Override
    public Outcome execute(Attempt dispatch) {
        return switch (dispatch.operation()) {
            case "invoice.create" -> create(dispatch);
            case "invoice.post" -> postInvoice(dispatch);
            case "invoice.cancel" -> cancel(dispatch);
            default -> throw new IllegalArgumentException("an operation this adapter does not serve: " + dispatch.operation());
        };
    }

    @Override
    public Lookup lookup(Attempt dispatch) {
        return switch (dispatch.operation()) {
            case "invoice.create" -> invoices.byKey(dispatch);
            case "invoice.post" -> byPostedFlag(dispatch);
            case "invoice.cancel" -> byStatus(dispatch);
            default -> throw new IllegalArgumentException("an operation this adapter does not serve: " + dispatch.operation());
        };
    }

    private Outcome create(Attempt dispatch) {
        JsonObject payload = dispatch.payload();
        String currency = payload.getString("currency");
        String currencyKey = settings.currencyKeys().get(currency);
        if (currencyKey == null) { // refused before sending: nothing can exist at 1C
            return new Outcome.Rejected("currency_not_configured",
                    "no Catalog_Валюты reference is configured for " + currency, null);
        }
        JsonObjectBuilder document = JSON.createObjectBuilder()
                .add("Date", local(dispatch.createdAt()))
                .add("Организация_Key", settings.organizationKey())
                .add("ВалютаДокумента_Key", currencyKey)
                .add("СуммаДокумента", FieldType.major(payload.getJsonNumber("amount_minor").longValue(), currency))
                .add("Комментарий", "Toolgate: заказ " + payload.getString("order_id"))
                .add(settings.keyRequisite(), dispatch.downstreamKey());
        if (payload.containsKey("due_at")) {
            document.add("СрокОплаты", local(Instant.parse(payload.getString("due_at"))));
        }
        if (payload.containsKey("counterparty_inn")) {
            Counterparty counterparty = counterparty(payload.getString("counterparty_inn"));
            if (counterparty.failure() != null) {
                return counterparty.failure();
            }
            document.add("Контрагент_Key", counterparty.key());
        }
        Outcome created = outcomeOf(http.sendEffect(requests.create(settings.documentSet(), document.build().toString()), dispatch.gate()));
        if (created instanceof Outcome.Succeeded document1c && payload.getBoolean("post", false)) {
            return post(document1c, dispatch);
        }
        return created;
    }

    /** The document is the effect whatever becomes of the posting; its {@code posted} flag is read back, never assumed. */
    private Outcome post(Outcome.Succeeded created, Attempt dispatch) {
        String entity = settings.documentSet() + "(guid'" + created.objectId() + "')";
        Exchange posting = http.sendEffect(requests.posting(created.objectId()), dispatch.gate());
        if (posting instanceof Exchange.Answered a && a.status() == 200 && TargetHttpClient.jsonObject(a.body()) != null) {
            return new Outcome.Succeeded(created.objectId(), result(TargetHttpClient.jsonObject(a.body())), created.httpStatus());
        }
        String why = posting instanceof Exchange.Answered a ? "1C answered HTTP " + a.status() + odataCode(a.body()) : "no answer";
        Exchange reread = http.send(requests.document(created.objectId(), "Ref_Key,Number,Posted"));
        JsonObject document = reread instanceof Exchange.Answered r && r.status() == 200 ? TargetHttpClient.jsonObject(r.body()) : null;
        JsonObjectBuilder result = JSON.createObjectBuilder(document != null ? result(document) : created.result());
        if (document == null) {
            result.add("posted", JsonValue.NULL); // unknown: the posting's answer and the re-read were both lost
        }
        if (document == null || !document.getBoolean("Posted", false)) {
            result.add("post_error", why + " for " + entity);
        }
        return new Outcome.Succeeded(created.objectId(), result.build(), created.httpStatus());
    }

    /**
     * Every attempt reads the Posted flag first: posting a posted document re-posts it. Only 1C's own 404 (an
     * {@code odata.error} body) says the document is missing; a bare 404 came from something in front of 1C.
     */
    private Outcome postInvoice(Attempt dispatch) {
        String ref = dispatch.payload().getString("invoice_id");
        Outcome earlier = lookFirst(byPostedFlag(dispatch), dispatch);
        if (earlier != null) {
            return earlier;
        }
        Exchange posting = http.sendEffect(requests.posting(ref), dispatch.gate());
        if (posting instanceof Exchange.Answered a && a.status() / 100 == 2) {
            JsonObject document = TargetHttpClient.jsonObject(a.body());
            if (document == null || !ref.equalsIgnoreCase(document.getString("Ref_Key", "")) || document.get("Posted") != JsonValue.TRUE) {
                return new Outcome.Unknown("unreadable_response", a.status());
            }
            return new Outcome.Succeeded(ref, result(document), a.status());
        }
        if (posting instanceof Exchange.Answered a && a.status() == 404) {
            return !odataCode(a.body()).isEmpty()
                    ? new Outcome.Rejected("invoice_not_found", "1C has no such document (HTTP 404" + odataCode(a.body()) + ")", 404)
                    : new Outcome.Transient("target_http_404", a.retryAfter(), 404); // never reached 1C: nothing was posted
        }
        return outcomeOf(posting);
    }

    /** {@link Lookup#beforeResend}, but on the first attempt nothing was sent, so a failed look-up is a refusal for now. */
    private static Outcome lookFirst(Lookup lookup, Attempt dispatch) {
        if (dispatch.attempt() <= 1 && lookup instanceof Lookup.Unavailable unavailable) {
            return new Outcome.Transient(unavailable.errorCode(), null, null);
        }
        return Lookup.beforeResend(lookup);
    }

    /** {@code invoice.post}'s look-up: posted → found; not posted → absent (safe to post); no such document → failed. */
    private Lookup byPostedFlag(Attempt dispatch) {
        String ref = dispatch.payload().getString("invoice_id");
        Exchange exchange = http.send(requests.document(ref, "Ref_Key,Number,Posted,DeletionMark"));
        if (exchange instanceof Exchange.Answered a && a.status() == 404 && !odataCode(a.body()).isEmpty()) {
            return new Lookup.Failed(ref, "invoice_not_found", "1C has no such document (HTTP 404" + odataCode(a.body()) + ")");
        }
        if (!(exchange instanceof Exchange.Answered answered) || answered.status() != 200) {
            return new Lookup.Unavailable(failureCode(exchange));
        }
        JsonObject document = TargetHttpClient.jsonObject(answered.body());
        if (document == null || !ref.equalsIgnoreCase(document.getString("Ref_Key", ""))
                || !(document.get("Posted") == JsonValue.TRUE || document.get("Posted") == JsonValue.FALSE)) {
            return new Lookup.Unavailable("unreadable_response");
        }
        return document.get("Posted") == JsonValue.TRUE ? new Lookup.Found(ref, result(document)) : new Lookup.Absent();
    }

    /**
     * Writes the status "Отменен" to {@link #STATUS_REGISTER}. Every attempt still looks first, and a 4xx to the write
     * is read again before it counts as a refusal; a 2xx that does not show the record is unknown.
     */
    private Outcome cancel(Attempt dispatch) {
        String ref = dispatch.payload().getString("invoice_id");
        Outcome earlier = lookFirst(byStatus(dispatch), dispatch);
        if (earlier != null) {
            return earlier;
        }
        JsonObject record = JSON.createObjectBuilder()
                .add("Документ", ref)
                .add("Документ_Type", TYPE_PREFIX + settings.documentSet())
                .add("Организация_Key", settings.organizationKey())
                .add("Статус", CANCELLED)
                .add("Комментарий", "Toolgate: " + dispatch.payload().getString("reason"))
                .build();
        Exchange written = http.sendEffect(requests.create(STATUS_REGISTER, record.toString()), dispatch.gate());
        if (written instanceof Exchange.Answered a && a.status() / 100 == 2) {
            return cancelled(TargetHttpClient.jsonObject(a.body()), ref)
                    ? new Outcome.Succeeded(ref, CANCELLED_RESULT, a.status())
                    : new Outcome.Unknown("unreadable_response", a.status());
        }
        if (written instanceof Exchange.Answered a && a.status() / 100 == 4 && byStatus(dispatch) instanceof Lookup.Found) {
            return new Outcome.Succeeded(ref, CANCELLED_RESULT, a.status()); // refused to write what is there already
        }
        return outcomeOf(written);
    }

    /** {@code invoice.cancel}'s look-up: the invoice's status record says "Отменен" → found; no record or another status → absent. */
    private Lookup byStatus(Attempt dispatch) {
        String ref = dispatch.payload().getString("invoice_id");
        String key = "(" + encode("Документ") + "='" + ref + "'," + encode("Документ_Type") + "='"
                + encode(TYPE_PREFIX + settings.documentSet()) + "')";
        Exchange exchange = http.send(requests.record(STATUS_REGISTER, key));
        if (exchange instanceof Exchange.Answered a && a.status() == 404) { // no record for the document
            return new Lookup.Absent();
        }
        if (!(exchange instanceof Exchange.Answered answered) || answered.status() != 200) {
            return new Lookup.Unavailable(failureCode(exchange));
        }
        JsonObject found = TargetHttpClient.jsonObject(answered.body());
        if (found == null || !ref.equalsIgnoreCase(found.getString("Документ", "")) || !(found.get("Статус") instanceof JsonString)) {
            return new Lookup.Unavailable("unreadable_response");
        }
        return cancelled(found, ref) ? new Lookup.Found(ref, CANCELLED_RESULT) : new Lookup.Absent();
    }

    private static boolean cancelled(JsonObject record, String ref) {
        return record != null && ref.equalsIgnoreCase(record.getString("Документ", "")) && CANCELLED.equals(record.getString("Статус", null));
    }

    @Override
    public int lookupBatch(String operation) {
        return sharesLookups(operation) ? settings.lookupBatch() : 1;
    }

    /** Invoices by their keys, many to a request ({@link OneCKeyLookups#lookupAll}); anything else one by one. */
    @Override
    public List<Lookup> lookupAll(List<Attempt> attempts) {
        if (attempts.size() < 2 || !attempts.stream().allMatch(a -> sharesLookups(a.operation()))) {
            return Target.super.lookupAll(attempts);
        }
        return invoices.lookupAll(attempts);
    }

    /** Only invoices are found by our key in a query that can name many ({@link OneCKeyLookups}). */
    private static boolean sharesLookups(String operation) {
        return "invoice.create".equals(operation);
    }

    private Counterparty counterparty(String inn) {
        Exchange exchange = http.send(requests.set("Catalog_Контрагенты", filter("ИНН", inn) + "&$select=Ref_Key"));
        if (!(exchange instanceof Exchange.Answered answered) || answered.status() != 200) {
            // a failed read created nothing: the invoice was not sent, so it is safe to try again
            return new Counterparty(null, new Outcome.Transient(failureCode(exchange), null, null));
        }
        List<JsonObject> found = values(answered.body());
        if (found == null || found.size() != 1) {
            String why = found == null ? "unreadable" : found.isEmpty() ? "no counterparty has" : "several counterparties have";
            return new Counterparty(null, new Outcome.Rejected("counterparty_not_resolved", why + " the given INN", null));
        }
        return new Counterparty(found.get(0).getString("Ref_Key"), null);
    }

    private String local(Instant instant) {
        return ONE_C_DATE.format(LocalDateTime.ofInstant(instant, settings.timeZone()));
    }

    private record Counterparty(String key, Outcome failure) {
    }

    @Override
    public void close() {
        http.close();
    }
}
