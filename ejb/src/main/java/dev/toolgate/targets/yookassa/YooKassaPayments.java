package dev.toolgate.targets.yookassa;

import static dev.toolgate.canonical.Jsons.JSON;
import static dev.toolgate.targets.yookassa.YooKassaAnswers.money;
import static dev.toolgate.targets.yookassa.YooKassaAnswers.ok;
import static dev.toolgate.targets.yookassa.YooKassaAnswers.outcomeOf;

import dev.toolgate.targets.TargetUnanswered;
import dev.toolgate.canonical.FieldType;
import dev.toolgate.canonical.Fingerprint;
import dev.toolgate.targets.AnnouncedObjects;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.PaymentCoverage;
import dev.toolgate.targets.Target;
import dev.toolgate.targets.TargetHttpClient;
import dev.toolgate.targets.TargetRequest;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;

import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code payment.create} and {@code payment.refund}; with {@link YooKassaAnswers} and {@link YooKassaKeyLookups}, the only
 * classes that know YooKassa's fields.
 */
public final class YooKassaPayments implements Target, PaymentCoverage, AnnouncedObjects {

    static final String TRACE_FIELD = "gw_trace_id";

    /** What it sends, looks up in batches and hears announced: payments and their refunds. */
    private static final Set<String> OPERATIONS = Set.of("payment.create", "payment.refund");

    private final YooKassaSettings settings;
    private final TargetHttpClient http;
    private final String authorization;
    private final YooKassaKeyLookups lookups;

    public YooKassaPayments(YooKassaSettings settings) {
        this.settings = settings;
        this.http = new TargetHttpClient(settings.connectTimeout(), settings.readTimeout(), settings.tls());
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((settings.shopId() + ":" + settings.secretKey()).getBytes(StandardCharsets.UTF_8));
        this.lookups = new YooKassaKeyLookups(http, this::get);
    }

    /** YooKassa keys are at most 64 characters: the SHA-256 hex of our downstream key, the same on every attempt. */
    static String idempotenceKey(Attempt dispatch) {
        return Fingerprint.of(dispatch.downstreamKey());
    }

    @Override
    public String system() {
        return "yookassa";
    }

    @Override
    public Outcome execute(Attempt dispatch) {
        boolean refund = YooKassaKeyLookups.isRefund(dispatch);
        boolean keyWindowPassed = Instant.now().isAfter(dispatch.createdAt().plus(settings.keyWindow()));
        // A refund's preconditions are checked again before any later attempt, and past the
        // key window the same Idempotence-Key is a new request: both look for our object first.
        if (dispatch.attempt() > 1 && (refund || keyWindowPassed)) {
            Outcome earlier = Lookup.beforeResend(lookup(dispatch));
            if (earlier != null) {
                return earlier;
            }
            if (refund) {
                Outcome uncovered = refundNotCovered(dispatch);
                if (uncovered != null) {
                    return uncovered;
                }
            }
        }
        JsonObject body;
        try {
            body = refund ? refundBody(dispatch) : paymentBody(dispatch);
        } catch (ArithmeticException e) {
            return new Outcome.Rejected("currency_not_supported", "YooKassa amounts have at most two fraction digits", null);
        }
        return outcomeOf(http.sendEffect(post(refund ? "refunds" : "payments", idempotenceKey(dispatch), body), dispatch.gate()));
    }

    @Override
    public Lookup lookup(Attempt dispatch) {
        return lookups.lookup(dispatch);
    }

    /** Payments and refunds by their keys, many to a shared list ({@link YooKassaKeyLookups#lookupAll}). */
    @Override
    public int lookupBatch(String operation) {
        return OPERATIONS.contains(operation) ? YooKassaKeyLookups.LOOKUP_BATCH : 1;
    }

    @Override
    public List<Lookup> lookupAll(List<Attempt> attempts) {
        if (!attempts.isEmpty() && OPERATIONS.contains(attempts.get(0).operation())
                && attempts.stream().allMatch(attempt -> attempt.operation().equals(attempts.get(0).operation()))) {
            return lookups.lookupAll(attempts);
        }
        return Target.super.lookupAll(attempts);
    }

    @Override
    public Optional<Coverage> coverage(String paymentId) {
        Exchange exchange = http.send(get("payments/" + encode(paymentId)));
        if (exchange instanceof Exchange.Answered a && a.status() == 404) {
            return Optional.empty();
        }
        JsonObject payment = ok(exchange);
        if (payment == null || !(payment.get("amount") instanceof JsonObject amount)) {
            throw new TargetUnanswered(exchange instanceof Exchange.Answered a ? "yookassa answered " + a.status() : "yookassa did not answer");
        }
        BigDecimal refunded = payment.get("refunded_amount") instanceof JsonObject r ? money(r) : BigDecimal.ZERO;
        return Optional.of(new Coverage(paymentId, payment.getString("status", "?"), money(amount), refunded,
                amount.getString("currency", "?")));
    }

    @Override
    public Set<String> announcedOperations() {
        return OPERATIONS;
    }

    /** A notification names a payment or a refund: ours carry our key in {@code metadata.gw_key}. */
    @Override
    public Optional<String> downstreamKeyOf(String kind, String objectId) {
        String resource = "refund".equals(kind) ? "refunds/" : "payments/";
        Exchange exchange = http.send(get(resource + encode(objectId)));
        if (exchange instanceof Exchange.Answered a && a.status() == 404) {
            return Optional.empty();
        }
        JsonObject object = ok(exchange);
        if (object == null) {
            throw new TargetUnanswered(exchange instanceof Exchange.Answered a ? "yookassa answered " + a.status() : "yookassa did not answer");
        }
        return object.get("metadata") instanceof JsonObject m && m.get(YooKassaKeyLookups.KEY_FIELD) instanceof JsonString key
                ? Optional.of(key.getString()) : Optional.empty();
    }

    /** Null when the payment still covers the refund; otherwise the refusal, with nothing sent. */
    private Outcome refundNotCovered(Attempt dispatch) {
        Exchange exchange = http.send(get("payments/" + encode(dispatch.payload().getString("payment_id"))));
        JsonObject payment = ok(exchange);
        if (payment == null) {
            return exchange instanceof Exchange.Answered a && a.status() == 404
                    ? new Outcome.Rejected("refund_not_covered", "the payment to refund does not exist", 404)
                    : new Outcome.Transient("precondition_unavailable", null, null);
        }
        BigDecimal paid = money(payment.getJsonObject("amount"));
        BigDecimal refunded = payment.get("refunded_amount") instanceof JsonObject r ? money(r) : BigDecimal.ZERO;
        BigDecimal ours = FieldType.major(dispatch.payload().getJsonNumber("amount_minor").longValue(), dispatch.payload().getString("currency"));
        if (!"succeeded".equals(payment.getString("status", "")) || paid.subtract(refunded).compareTo(ours) < 0) {
            return new Outcome.Rejected("refund_not_covered",
                    "the payment no longer covers this refund (status " + payment.getString("status", "?") + ")", 200);
        }
        return null;
    }

    private JsonObject paymentBody(Attempt dispatch) {
        JsonObject payload = dispatch.payload();
        JsonObjectBuilder body = JSON.createObjectBuilder()
                .add("amount", amount(payload))
                .add("capture", true)
                .add("description", payload.getString("description"))
                .add("metadata", metadata(dispatch).add("order_id", payload.getString("order_id")));
        if (settings.returnUrl() != null) {
            body.add("confirmation", JSON.createObjectBuilder().add("type", "redirect").add("return_url", settings.returnUrl()));
        }
        return body.build();
    }

    private static JsonObject refundBody(Attempt dispatch) {
        JsonObject payload = dispatch.payload();
        return JSON.createObjectBuilder()
                .add("payment_id", payload.getString("payment_id"))
                .add("amount", amount(payload))
                .add("description", payload.getString("reason"))
                .add("metadata", metadata(dispatch))
                .build();
    }

    private static JsonObjectBuilder metadata(Attempt dispatch) {
        JsonObjectBuilder metadata = JSON.createObjectBuilder().add(YooKassaKeyLookups.KEY_FIELD, dispatch.downstreamKey());
        if (dispatch.traceId() != null) {
            metadata.add(TRACE_FIELD, dispatch.traceId());
        }
        return metadata;
    }

    private static JsonObjectBuilder amount(JsonObject payload) {
        String currency = payload.getString("currency");
        BigDecimal value = FieldType.major(payload.getJsonNumber("amount_minor").longValue(), currency).setScale(2);
        return JSON.createObjectBuilder().add("value", value.toPlainString()).add("currency", currency);
    }

    private TargetRequest post(String resource, String idempotenceKey, JsonObject body) {
        return TargetRequest.post(settings.url().resolve(resource), body.toString())
                .header("Authorization", authorization)
                .header("Idempotence-Key", idempotenceKey)
                .header("Content-Type", "application/json");
    }

    private TargetRequest get(String pathAndQuery) {
        return TargetRequest.get(settings.url().resolve(pathAndQuery)).header("Authorization", authorization);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        http.close();
    }
}
