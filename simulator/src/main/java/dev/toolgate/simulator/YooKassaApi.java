package dev.toolgate.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * YooKassa API v3 (docs/targets.md): {@code /yookassa/v3/payments} and {@code /v3/refunds},
 * HTTP Basic {@code shopId:secretKey}, a mandatory {@code Idempotence-Key} on every POST (≤ 64
 * characters, 24 hours: the same key with the same body answers the original result again, with
 * another body it is refused), list calls with {@code created_at.gte/lt}, {@code payment_id},
 * {@code status}, {@code limit} and {@code cursor}, newest first, and no metadata filter. Errors are
 * {@code {"type":"error","id","code","description","parameter"}}. The simulated shop confirms
 * payments at once, as an auto-payment with a saved method would; {@code pending_then_succeeded}
 * leaves one pending for {@code delay_ms}.
 */
final class YooKassaApi implements HttpHandler, SimulatedSystem {

    static final String SYSTEM = "yookassa";
    private static final Duration KEY_WINDOW = Duration.ofHours(24);
    private static final Pattern VALUE = Pattern.compile("\\d{1,10}\\.\\d{2}");
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
    private static final long DEFAULT_PENDING_MS = 1_500;
    private static final int MAX_METADATA_KEYS = 16;
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private static final String ROOT = "/v3/";

    private final String authorization;
    private final Faults faults;
    private final Map<String, Stored> payments = new LinkedHashMap<>();
    private final Map<String, Stored> refunds = new LinkedHashMap<>();
    private final Map<String, Remembered> keys = new HashMap<>();
    private final CallCounter calls = new CallCounter(); // by metadata.gw_key: creates only (lists carry no key)
    private long sequence;

    YooKassaApi(String shopId, String secretKey, Faults faults) {
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((shopId + ":" + secretKey).getBytes(StandardCharsets.UTF_8));
        this.faults = faults;
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
    public void handle(HttpExchange exchange) throws IOException {
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
            FaultRunner.answer(exchange, faults, SYSTEM, path + "?" + query, fault -> get(path, query), YooKassaApi::statusError);
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
                fault -> idempotent(key, path, body, () -> create(path, body, fault)), YooKassaApi::statusError);
    }

    /**
     * The provider's idempotency layer: the first answer to a key is kept for 24 hours and given
     * again to the same request; a different request under the key is refused. A 202 means "not
     * processed yet": it is not kept, so the repeat does the work. Faults armed as a status run
     * before this layer (rate limits and gateway errors do), so they are never kept either.
     */
    private synchronized OneCOData.Reply idempotent(String key, String path, JsonObject body,
                                                    Supplier<OneCOData.Reply> work) {
        Instant now = Instant.now();
        Remembered earlier = keys.get(key);
        if (earlier != null && earlier.at().plus(KEY_WINDOW).isAfter(now)) {
            if (!earlier.request().equals(path + " " + body)) {
                return new OneCOData.Reply(400, error("invalid_request",
                        "Idempotence key duplicated: the same key was used with other request parameters", "Idempotence-Key"));
            }
            return earlier.reply();
        }
        OneCOData.Reply reply = work.get();
        if (reply.status() != 202) {
            keys.put(key, new Remembered(path + " " + body, reply, now));
        }
        return reply;
    }

    private OneCOData.Reply create(String path, JsonObject body, Fault fault) {
        String initial = fault != null && fault.kind() == Fault.Kind.PENDING_THEN_SUCCEEDED ? "pending" : "succeeded";
        long pendingMs = fault != null && fault.delayMs() > 0 ? fault.delayMs() : DEFAULT_PENDING_MS;
        boolean twice = fault != null && fault.kind() == Fault.Kind.DUPLICATE;
        return switch (path) {
            case "payments" -> createPayment(body, initial, pendingMs, twice);
            case "refunds" -> createRefund(body, initial, pendingMs, twice);
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
        Stored payment = payments.get(body.getString("payment_id", ""));
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
                .add("created_at", timestamp(Instant.now()))
                .add("refundable", "succeeded".equals(status))
                .add("test", true)
                .build();
        payments.put(id, new Stored(payment, ++sequence));
        return payment;
    }

    private JsonObject refund(Stored payment, JsonObject amount, String description, JsonObject metadata, String status) {
        String id = UUID.randomUUID().toString();
        JsonObject refund = Json.createObjectBuilder()
                .add("id", id).add("payment_id", payment.now().getString("id")).add("status", status)
                .add("amount", amount).add("description", description).add("metadata", metadata)
                .add("created_at", timestamp(Instant.now()))
                .build();
        refunds.put(id, new Stored(refund, ++sequence));
        // the money is reserved for the refund as soon as it is accepted, pending or not
        JsonObject paid = payment.now();
        BigDecimal refunded = new BigDecimal(paid.getJsonObject("refunded_amount").getString("value"))
                .add(new BigDecimal(amount.getString("value")));
        payment.replace(Json.createObjectBuilder(paid).add("refunded_amount", Json.createObjectBuilder()
                .add("value", refunded.setScale(2).toPlainString()).add("currency", amount.getString("currency"))).build());
        return refund;
    }

    private static void settleLater(Map<String, Stored> objects, String id, long pendingMs) {
        Stored stored = objects.get(id);
        if ("pending".equals(stored.now().getString("status"))) {
            stored.succeedAt(Instant.now().plusMillis(pendingMs));
        }
    }

    private synchronized OneCOData.Reply get(String path, Map<String, String> query) {
        String[] parts = path.split("/");
        if (parts.length == 2 && ("payments".equals(parts[0]) || "refunds".equals(parts[0]))) {
            Stored found = ("payments".equals(parts[0]) ? payments : refunds).get(parts[1]);
            return found == null ? new OneCOData.Reply(404, error("not_found", "Object not found", null))
                    : new OneCOData.Reply(200, found.now());
        }
        if (parts.length == 1 && ("payments".equals(parts[0]) || "refunds".equals(parts[0]))) {
            return list("payments".equals(parts[0]) ? payments : refunds, query);
        }
        return new OneCOData.Reply(404, error("not_found", "Unknown resource", null));
    }

    /**
     * Newest first. The cursor names the last item given (opaque to the client), so objects created
     * while a client pages never shift an item out of its view.
     */
    private static OneCOData.Reply list(Map<String, Stored> objects, Map<String, String> query) {
        int limit;
        long before;
        Predicate<JsonObject> filter;
        try {
            limit = Integer.parseInt(query.getOrDefault("limit", "10"));
            before = query.containsKey("cursor") ? Long.parseLong(new String(Base64.getUrlDecoder().decode(query.get("cursor")),
                    StandardCharsets.UTF_8)) : Long.MAX_VALUE;
            filter = filter(query);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return new OneCOData.Reply(400, error("invalid_request", "Invalid list parameters", null));
        }
        if (limit < 1 || limit > 100) {
            return new OneCOData.Reply(400, error("invalid_request", "limit must be between 1 and 100", "limit"));
        }
        List<Stored> matching = objects.values().stream().filter(o -> o.sequence() < before && filter.test(o.now()))
                .sorted(Comparator.comparingLong(Stored::sequence).reversed()).toList();
        JsonArrayBuilder items = Json.createArrayBuilder();
        matching.stream().limit(limit).forEach(o -> items.add(o.now()));
        JsonObjectBuilder page = Json.createObjectBuilder().add("type", "list").add("items", items);
        if (matching.size() > limit) {
            String last = Long.toString(matching.get(limit - 1).sequence());
            page.add("next_cursor", Base64.getUrlEncoder().encodeToString(last.getBytes(StandardCharsets.UTF_8)));
        }
        return new OneCOData.Reply(200, page.build());
    }

    private static Predicate<JsonObject> filter(Map<String, String> query) {
        Predicate<JsonObject> filter = o -> true;
        for (Map.Entry<String, String> p : query.entrySet()) {
            String value = p.getValue();
            filter = filter.and(switch (p.getKey()) {
                case "payment_id" -> o -> value.equals(o.getString("payment_id", null));
                case "status" -> o -> value.equals(o.getString("status"));
                case "created_at.gte" -> o -> !Instant.parse(o.getString("created_at")).isBefore(Instant.parse(value));
                case "created_at.gt" -> o -> Instant.parse(o.getString("created_at")).isAfter(Instant.parse(value));
                case "created_at.lte" -> o -> !Instant.parse(o.getString("created_at")).isAfter(Instant.parse(value));
                case "created_at.lt" -> o -> Instant.parse(o.getString("created_at")).isBefore(Instant.parse(value));
                case "limit", "cursor" -> o -> true;
                default -> throw new IllegalArgumentException(p.getKey());
            });
            if (p.getKey().startsWith("created_at")) {
                Instant.parse(value); // refuse a malformed bound up front, not per item
            }
        }
        return filter;
    }

    /** The documented 400 for an invalid amount or metadata; null when both are valid. */
    private static OneCOData.Reply invalid(JsonObject body) {
        String problem = amountProblem(body.get("amount"));
        if (problem == null) {
            problem = metadataProblem(body.get("metadata"));
        }
        return problem == null ? null : new OneCOData.Reply(400, error("invalid_request",
                problem.substring(problem.indexOf(' ') + 1), problem.substring(0, problem.indexOf(' '))));
    }

    private static String amountProblem(JsonValue amount) {
        if (!(amount instanceof JsonObject a) || !(a.get("value") instanceof JsonString v) || !VALUE.matcher(v.getString()).matches()
                || new BigDecimal(v.getString()).signum() <= 0) {
            return "amount.value Amount value must be a positive decimal with two fraction digits";
        }
        if (!(a.get("currency") instanceof JsonString c) || !CURRENCY.matcher(c.getString()).matches()) {
            return "amount.currency Currency must be an ISO 4217 code";
        }
        return null;
    }

    private static String metadataProblem(JsonValue metadata) {
        if (metadata == null) {
            return null;
        }
        if (!(metadata instanceof JsonObject m) || m.size() > MAX_METADATA_KEYS
                || m.values().stream().anyMatch(v -> !(v instanceof JsonString s) || s.getString().length() > 512)) {
            return "metadata Metadata is at most 16 string values of at most 512 characters";
        }
        return null;
    }

    private static JsonObject metadata(JsonObject body) {
        return body.get("metadata") instanceof JsonObject m ? m : JsonValue.EMPTY_JSON_OBJECT;
    }

    private static void addIfCarries(List<String> ids, Stored stored, String key) {
        JsonObject object = stored.now();
        if (key.equals(object.getJsonObject("metadata").getString("gw_key", null))) {
            ids.add(object.getString("id"));
        }
    }

    private static String timestamp(Instant at) {
        return TIMESTAMP.format(at);
    }

    /** The documented error bodies for a status an armed fault asks for; 202 is "accepted, not processed yet". */
    private static OneCOData.Reply statusError(int status) {
        JsonObject body = switch (status) {
            case 202 -> Json.createObjectBuilder().add("type", "processing")
                    .add("description", "Request accepted, but not processed yet. Repeat it with the same Idempotence-Key")
                    .add("retry_after", 1800).build();
            case 429 -> error("too_many_requests", "Too many requests", null);
            case 500 -> error("internal_server_error", "Internal server error. The result of the request is unknown", null);
            case 401 -> error("invalid_credentials", "Authentication by given credentials failed", null);
            case 403 -> error("forbidden", "Operation is forbidden for this shop", null);
            case 404 -> error("not_found", "Object not found", null);
            default -> error("internal_server_error", "Gateway error", null);
        };
        return new OneCOData.Reply(status, body);
    }

    static JsonObject error(String code, String description, String parameter) {
        JsonObjectBuilder error = Json.createObjectBuilder().add("type", "error").add("id", UUID.randomUUID().toString())
                .add("code", code).add("description", description);
        if (parameter != null) {
            error.add("parameter", parameter);
        }
        return error.build();
    }

    private record Remembered(String request, OneCOData.Reply reply, Instant at) {
    }

    /** A payment or refund; a pending one becomes succeeded when its time comes, as the provider's would. */
    private static final class Stored {
        private final long sequence;
        private JsonObject object;
        private Instant succeedAt;

        Stored(JsonObject object, long sequence) {
            this.object = object;
            this.sequence = sequence;
        }

        long sequence() {
            return sequence;
        }

        void succeedAt(Instant at) {
            succeedAt = at;
        }

        void replace(JsonObject changed) {
            object = changed;
        }

        JsonObject now() {
            if (succeedAt != null && !Instant.now().isBefore(succeedAt)) {
                JsonObjectBuilder done = Json.createObjectBuilder(object).add("status", "succeeded");
                if (object.containsKey("paid")) {
                    done.add("paid", true).add("refundable", true).add("captured_at", timestamp(succeedAt));
                }
                object = done.build();
                succeedAt = null;
            }
            return object;
        }
    }
}
