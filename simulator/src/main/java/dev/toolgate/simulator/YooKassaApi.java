package dev.toolgate.simulator;

import static dev.toolgate.simulator.YooKassaErrors.error;
import static dev.toolgate.simulator.YooKassaErrors.invalid;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * YooKassa API v3 (docs/targets.md): {@code /yookassa/v3/payments} and {@code /v3/refunds},
 * HTTP Basic {@code shopId:secretKey}, a mandatory {@code Idempotence-Key} on every POST (≤ 64
 * characters, 24 hours: {@link IdempotenceKeys}), list calls ({@link YooKassaList}), errors
 * ({@link YooKassaErrors}), and {@code /v3/webhooks} ({@link YooKassaWebhooks}): every status change
 * of a payment or refund is notified to the URLs subscribed to its event. The simulated shop confirms
 * payments at once, as an auto-payment with a saved method would; {@code pending_then_succeeded}
 * leaves one pending for {@code delay_ms}.
 */
final class YooKassaApi implements HttpHandler, SimulatedSystem {

    static final String SYSTEM = "yookassa";
    private static final long DEFAULT_PENDING_MS = 1_500;
    /**
     * The provider retries an unanswered notification for 24 hours at growing intervals; here the same curve, scaled
     * down: the intervals after each failed try, one retry each.
     */
    static final List<Long> RETRY_MS = List.of(250L, 500L, 1_000L, 2_000L, 4_000L);

    private static final String ROOT = "/v3/";

    private final String authorization;
    private final Faults faults;
    private final Map<String, YooKassaObject> payments = new LinkedHashMap<>();
    private final Map<String, YooKassaObject> refunds = new LinkedHashMap<>();
    private final YooKassaWebhooks webhooks = new YooKassaWebhooks();
    private final Notifications notifications;
    private final ScheduledExecutorService clock; // makes a pending object succeeded at its due time, notified then
    private final IdempotenceKeys keys = new IdempotenceKeys();
    private final CallCounter calls = new CallCounter(); // by metadata.gw_key: creates only (lists carry no key)
    private final List<Long> retryMs;
    private long sequence;

    /** {@code retryMs}: the intervals between a notification's tries, {@link #RETRY_MS} but in a test that waits them all out. */
    YooKassaApi(String shopId, String secretKey, Faults faults, Notifications notifications, ScheduledExecutorService clock,
                List<Long> retryMs) {
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((shopId + ":" + secretKey).getBytes(StandardCharsets.UTF_8));
        this.faults = faults;
        this.notifications = notifications;
        this.clock = clock;
        this.retryMs = List.copyOf(retryMs);
    }

    @Override
    public String name() {
        return SYSTEM;
    }

    @Override
    public boolean supports(Fault.Kind kind) {
        return true;
    }

    @Override
    public synchronized void reset() {
        payments.clear();
        refunds.clear();
        webhooks.clear();
        keys.clear();
        calls.clear();
    }

    @Override
    public synchronized List<String> effects(String key) {
        List<String> ids = new ArrayList<>();
        payments.values().forEach(p -> addIfCarries(ids, p, key));
        refunds.values().forEach(r -> addIfCarries(ids, r, key));
        return ids;
    }

    @Override
    public int[] calls(String key) {
        return calls.of(key);
    }

    @Override
    public List<CallCounter.Create> creates(String key) {
        return calls.creates(key);
    }

    @Override
    public boolean supports(NotificationFaults.Kind kind) {
        return true;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        notifications.answering(() -> answer(exchange));
    }

    private void answer(HttpExchange exchange) throws IOException {
        if (!authorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            SimHttp.send(exchange, 401, error("invalid_credentials", "Authentication by given credentials failed", null));
            return;
        }
        String full = SimHttp.path(exchange, "/" + SYSTEM);
        if (!full.startsWith(ROOT)) {
            SimHttp.send(exchange, 404, error("not_found", "Unknown resource", null));
            return;
        }
        String path = full.substring(ROOT.length());
        String method = exchange.getRequestMethod();
        String text = SimHttp.body(exchange);
        if ("POST".equals(method)) {
            post(exchange, path, text);
        } else if ("GET".equals(method)) {
            Map<String, String> query = SimHttp.query(exchange);
            FaultRunner.answer(exchange, faults, SYSTEM, path + "?" + query, fault -> get(path, query), YooKassaErrors::statusError);
        } else if ("DELETE".equals(method) && path.startsWith("webhooks/")) {
            FaultRunner.answer(exchange, faults, SYSTEM, path, fault -> webhooks.remove(path.substring("webhooks/".length())),
                    YooKassaErrors::statusError);
        } else {
            SimHttp.send(exchange, 405, error("method_not_allowed", "Method not allowed", null));
        }
    }

    private void post(HttpExchange exchange, String path, String text) throws IOException {
        String key = exchange.getRequestHeaders().getFirst("Idempotence-Key");
        if (key == null || key.isBlank() || key.length() > 64) {
            SimHttp.send(exchange, 400, error("invalid_request", "Idempotence-Key header is missing or longer than 64 characters",
                    "Idempotence-Key"));
            return;
        }
        JsonObject body = SimHttp.object(text);
        if (body == null) {
            SimHttp.send(exchange, 400, error("invalid_request", "Request body is not a JSON object", null));
            return;
        }
        String gwKey = body.get("metadata") instanceof JsonObject metadata ? metadata.getString("gw_key", null) : null;
        FaultRunner.answer(exchange, faults, SYSTEM, path + " " + text, fault -> calls.count(gwKey, true, fault),
                fault -> idempotent(key, path, body, () -> create(path, body, fault)), YooKassaErrors::statusError);
    }

    /** The provider's idempotency layer around {@code work}, under this API's lock: see {@link IdempotenceKeys}. */
    private synchronized OneCOData.Reply idempotent(String key, String path, JsonObject body, Supplier<OneCOData.Reply> work) {
        return keys.answer(key, path + " " + body, work);
    }

    private OneCOData.Reply create(String path, JsonObject body, Fault fault) {
        String initial = fault != null && fault.kind() == Fault.Kind.PENDING_THEN_SUCCEEDED ? "pending" : "succeeded";
        long pendingMs = fault != null && fault.delayMs() > 0 ? fault.delayMs() : DEFAULT_PENDING_MS;
        boolean twice = fault != null && fault.kind() == Fault.Kind.DUPLICATE;
        return switch (path) {
            case "payments" -> createPayment(body, initial, pendingMs, twice);
            case "refunds" -> createRefund(body, initial, pendingMs, twice);
            case "webhooks" -> webhooks.subscribe(body);
            default -> new OneCOData.Reply(404, error("not_found", "Unknown resource", null));
        };
    }

    private OneCOData.Reply createPayment(JsonObject body, String initial, long pendingMs, boolean twice) {
        OneCOData.Reply invalid = invalid(body);
        if (invalid != null) {
            return invalid;
        }
        if (body.get("description") instanceof JsonString d && d.getString().length() > 128) {
            return new OneCOData.Reply(400, error("invalid_request", "Description is longer than 128 characters", "description"));
        }
        JsonObject payment = payment(body.getJsonObject("amount"), body.getString("description", ""), metadata(body), initial);
        settleLater(payments, payment.getString("id"), pendingMs);
        if (twice) {
            settleLater(payments, payment(body.getJsonObject("amount"), body.getString("description", ""), metadata(body), initial)
                    .getString("id"), pendingMs);
        }
        return new OneCOData.Reply(200, payment);
    }

    private OneCOData.Reply createRefund(JsonObject body, String initial, long pendingMs, boolean twice) {
        OneCOData.Reply invalid = invalid(body);
        if (invalid != null) {
            return invalid;
        }
        YooKassaObject payment = payments.get(body.getString("payment_id", ""));
        if (payment == null) {
            return new OneCOData.Reply(400, error("invalid_request", "Payment with the given payment_id not found", "payment_id"));
        }
        JsonObject paid = payment.now();
        if (!"succeeded".equals(paid.getString("status"))) {
            return new OneCOData.Reply(400, error("invalid_request", "Only a succeeded payment can be refunded", "payment_id"));
        }
        JsonObject amount = body.getJsonObject("amount");
        if (!amount.getString("currency").equals(paid.getJsonObject("amount").getString("currency"))) {
            return new OneCOData.Reply(400, error("invalid_request", "Refund currency differs from the payment's", "amount.currency"));
        }
        int copies = twice ? 2 : 1;
        BigDecimal asked = new BigDecimal(amount.getString("value")).multiply(BigDecimal.valueOf(copies));
        BigDecimal refundable = new BigDecimal(paid.getJsonObject("amount").getString("value"))
                .subtract(new BigDecimal(paid.getJsonObject("refunded_amount").getString("value")));
        if (asked.compareTo(refundable) > 0) {
            return new OneCOData.Reply(400, error("invalid_request", "Refund amount exceeds the amount available for refund", "amount.value"));
        }
        JsonObject refund = null;
        for (int i = 0; i < copies; i++) {
            refund = refund(payment, amount, body.getString("description", ""), metadata(body), initial);
            settleLater(refunds, refund.getString("id"), pendingMs);
        }
        return new OneCOData.Reply(200, refund);
    }

    private JsonObject payment(JsonObject amount, String description, JsonObject metadata, String status) {
        String id = UUID.randomUUID().toString();
        JsonObject payment = Json.createObjectBuilder()
                .add("id", id).add("status", status).add("paid", "succeeded".equals(status))
                .add("amount", amount)
                .add("refunded_amount", Json.createObjectBuilder().add("value", "0.00").add("currency", amount.getString("currency")))
                .add("description", description)
                .add("metadata", metadata)
                .add("created_at", YooKassaObject.timestamp(Instant.now()))
                .add("refundable", "succeeded".equals(status))
                .add("test", true)
                .build();
        payments.put(id, new YooKassaObject(payment, ++sequence, "payment.succeeded", this::changed));
        return payment;
    }

    private JsonObject refund(YooKassaObject payment, JsonObject amount, String description, JsonObject metadata, String status) {
        String id = UUID.randomUUID().toString();
        JsonObject refund = Json.createObjectBuilder()
                .add("id", id).add("payment_id", payment.now().getString("id")).add("status", status)
                .add("amount", amount).add("description", description).add("metadata", metadata)
                .add("created_at", YooKassaObject.timestamp(Instant.now()))
                .build();
        refunds.put(id, new YooKassaObject(refund, ++sequence, "refund.succeeded", this::changed));
        // the money is reserved for the refund as soon as it is accepted, pending or not
        JsonObject paid = payment.now();
        BigDecimal refunded = new BigDecimal(paid.getJsonObject("refunded_amount").getString("value"))
                .add(new BigDecimal(amount.getString("value")));
        payment.replace(Json.createObjectBuilder(paid).add("refunded_amount", Json.createObjectBuilder()
                .add("value", refunded.setScale(2).toPlainString()).add("currency", amount.getString("currency"))).build());
        return refund;
    }

    /**
     * A new object: a succeeded one is a change to notify now; a pending one succeeds {@code pendingMs} later, when
     * the clock notifies it (an {@code early} notification fault sends its success now as well, while it reads pending).
     */
    private void settleLater(Map<String, YooKassaObject> objects, String id, long pendingMs) {
        YooKassaObject stored = objects.get(id);
        if (!"pending".equals(stored.now().getString("status"))) {
            changed(stored.successEvent(), stored.now());
            return;
        }
        stored.succeedAt(Instant.now().plusMillis(pendingMs));
        notifications.early(change(stored.successEvent(), id), webhooks.messages(stored.successEvent(), stored.succeeded(Instant.now())));
        clock.schedule(() -> settleDue(objects, stored), pendingMs, TimeUnit.MILLISECONDS);
    }

    private synchronized void settleDue(Map<String, YooKassaObject> objects, YooKassaObject stored) {
        if (objects.get(stored.id()) == stored) { // not reset meanwhile
            stored.settle();
        }
    }

    /** A status change of {@code object}: each URL subscribed to {@code event} is notified. */
    private void changed(String event, JsonObject object) {
        notifications.changed(change(event, object.getString("id")), webhooks.messages(event, object));
    }

    private Notifications.Change change(String event, String objectId) {
        return new Notifications.Change(SYSTEM, event, objectId, retryMs);
    }

    private synchronized OneCOData.Reply get(String path, Map<String, String> query) {
        String[] parts = path.split("/");
        if (parts.length == 2 && ("payments".equals(parts[0]) || "refunds".equals(parts[0]))) {
            YooKassaObject found = ("payments".equals(parts[0]) ? payments : refunds).get(parts[1]);
            return found == null ? new OneCOData.Reply(404, error("not_found", "Object not found", null))
                    : new OneCOData.Reply(200, found.now());
        }
        if (parts.length == 1 && ("payments".equals(parts[0]) || "refunds".equals(parts[0]))) {
            return YooKassaList.page(("payments".equals(parts[0]) ? payments : refunds).values(), query);
        }
        if (parts.length == 1 && "webhooks".equals(parts[0])) {
            return webhooks.list();
        }
        return new OneCOData.Reply(404, error("not_found", "Unknown resource", null));
    }

    private static JsonObject metadata(JsonObject body) {
        return body.get("metadata") instanceof JsonObject m ? m : JsonValue.EMPTY_JSON_OBJECT;
    }

    private static void addIfCarries(List<String> ids, YooKassaObject stored, String key) {
        JsonObject object = stored.now();
        if (key.equals(object.getJsonObject("metadata").getString("gw_key", null))) {
            ids.add(object.getString("id"));
        }
    }
}
