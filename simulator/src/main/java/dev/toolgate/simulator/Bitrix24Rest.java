package dev.toolgate.simulator;

import static dev.toolgate.simulator.SimHttp.object;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsExchange;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Bitrix24 REST through an incoming webhook (docs/targets.md):
 * {@code POST /bitrix24/rest/<user>/<secret>/<method>[.json]} with a JSON body; {@code crm.deal.add}
 * answers {@code {"result": <id>}}; {@code crm.deal.get} reads one deal back; {@code crm.deal.update}
 * changes its {@code STAGE_ID}, {@code COMMENTS} or {@code TITLE} and answers {@code {"result": true}};
 * {@code crm.deal.list} filters exactly, or by a list with the IN prefix ({@code "@ORIGIN_ID": [...]}), and pages by
 * 50; there is no {@code crm.deal.delete};
 * errors are {@code {"error": …, "error_description": …}}. Like the real portal, nothing here makes
 * {@code ORIGIN_ID} unique: two adds with one key make two deals. Parameters come as JSON, as a form
 * ({@code fields[TITLE]=…}) or in the query. Handlers bound with {@code event.bind} are sent
 * {@code ONCRMDEALADD} and {@code ONCRMDEALUPDATE} ({@link Bitrix24Events}).
 */
final class Bitrix24Rest implements HttpHandler, SimulatedSystem {

    static final String SYSTEM = "bitrix24";
    private static final int PAGE = 50;
    /** The fields {@code crm.deal.update} changes here; like the portal, it ignores the others it is sent. */
    private static final Set<String> UPDATABLE = Set.of("STAGE_ID", "COMMENTS", "TITLE");
    /** The failure ("lost") stage of the general pipeline, and of pipeline N: {@code C<N>:LOSE}. */
    private static final Pattern LOST = Pattern.compile("(C\\d+:)?LOSE");
    static final String LOST_KIND = "lost";

    private final String root;
    private final Faults faults;
    private final Map<Integer, JsonObject> deals = new LinkedHashMap<>();
    /** The deals of each ORIGIN_ID, as the portal's database indexes it: a list by key reads no other deal. */
    private final Map<String, List<Integer>> byOrigin = new HashMap<>();
    private final CallCounter calls = new CallCounter(); // by ORIGIN_ID: adds and lists
    private final StateChanges changes = new StateChanges(); // moves of a deal to a lost stage
    private final Bitrix24Events events;
    private final Notifications notifications;
    private int nextId;

    Bitrix24Rest(String user, String secret, String applicationToken, Faults faults, Notifications notifications) {
        this.root = "/rest/" + user + "/" + secret + "/";
        this.faults = faults;
        this.notifications = notifications;
        this.events = new Bitrix24Events(applicationToken, notifications);
        reset();
    }

    @Override
    public String name() {
        return SYSTEM;
    }

    @Override
    public synchronized void reset() {
        deals.clear();
        byOrigin.clear();
        calls.clear();
        changes.clear();
        events.clear();
        nextId = 100;
    }

    @Override
    public synchronized List<String> effects(String key) {
        List<String> ids = new ArrayList<>();
        deals.forEach((id, deal) -> {
            if (key.equals(deal.getString("ORIGIN_ID", null))) {
                ids.add(Integer.toString(id));
            }
        });
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
    public Set<String> stateKinds() {
        return Set.of(LOST_KIND);
    }

    @Override
    public int[] stateChanges(String kind, String object) {
        return changes.of(kind, object);
    }

    @Override
    public boolean supports(NotificationFaults.Kind kind) {
        return kind != NotificationFaults.Kind.EARLY;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        notifications.answering(() -> answer(exchange));
    }

    private void answer(HttpExchange exchange) throws IOException {
        String path = SimHttp.path(exchange, "/" + SYSTEM);
        if (!path.startsWith(root) || path.length() == root.length()) {
            SimHttp.send(exchange, 401, error("NO_AUTH_FOUND", "Wrong authorization data"));
            return;
        }
        String method = path.substring(root.length()).replaceFirst("\\.json$", "");
        String text = SimHttp.body(exchange);
        JsonObject body = params(exchange, text);
        if (body == null) {
            SimHttp.send(exchange, 400, error("", "Invalid JSON"));
            return;
        }
        List<String> keys = keys(method, body);
        // a look-up of several keys is one request that reaches each: counted for every key it asks for
        FaultRunner.answer(exchange, faults, SYSTEM, method + " " + text,
                fault -> keys.forEach(key -> calls.count(key, "crm.deal.add".equals(method), fault)),
                fault -> route(method, body, fault, portal(exchange)),
                Bitrix24Rest::limitError);
    }

    /** A JSON body, a form body, or (with no body) the query string; null for a body that is none of them. */
    private static JsonObject params(HttpExchange exchange, String text) {
        String type = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
        if (type.startsWith("application/x-www-form-urlencoded")) {
            return Forms.parse(text);
        }
        if (text.isBlank()) {
            String query = exchange.getRequestURI().getRawQuery();
            return query == null ? JsonValue.EMPTY_JSON_OBJECT : Forms.parse(query);
        }
        return object(text);
    }

    /** The portal's REST root as this caller reaches it, e.g. {@code http://127.0.0.1:18090/bitrix24/rest/}. */
    private static String portal(HttpExchange exchange) {
        String host = exchange.getRequestHeaders().getFirst("Host");
        if (host == null) {
            host = exchange.getLocalAddress().getAddress().getHostAddress() + ":" + exchange.getLocalAddress().getPort();
        }
        boolean mounted = exchange.getRequestURI().getPath().startsWith("/" + SYSTEM + "/");
        return (exchange instanceof HttpsExchange ? "https" : "http") + "://" + host + (mounted ? "/" + SYSTEM : "") + "/rest/";
    }

    private OneCOData.Reply route(String method, JsonObject body, Fault fault, String portal) {
        return switch (method) {
            case "crm.deal.add" -> add(body, fault != null && fault.kind() == Fault.Kind.DUPLICATE);
            case "crm.deal.list" -> list(body);
            case "crm.deal.get" -> get(body);
            case "crm.deal.update" -> update(body);
            case "event.bind" -> withTime(events.bind(body, portal));
            case "event.get" -> withTime(events.get());
            case "event.unbind" -> withTime(events.unbind(body));
            default -> new OneCOData.Reply(404, error("ERROR_METHOD_NOT_FOUND", "Method not found!"));
        };
    }

    private synchronized OneCOData.Reply add(JsonObject body, boolean twice) {
        JsonObject fields = body.getJsonObject("fields");
        if (fields == null || !(fields.get("TITLE") instanceof JsonString title) || title.getString().isBlank()) {
            return new OneCOData.Reply(400, error("", "Не заполнено обязательное поле \"Название\""));
        }
        int id = store(fields);
        events.dealChanged("ONCRMDEALADD", id);
        if (twice) {
            events.dealChanged("ONCRMDEALADD", store(fields));
        }
        return new OneCOData.Reply(200, Json.createObjectBuilder().add("result", id).add("time", time()).build());
    }

    /**
     * {@code crm.deal.get} (b24-rest-docs {@code api-reference/crm/deals/crm-deal-get.md}): {@code id} as a
     * number or a string, the deal's fields in {@code result}; an unknown id is {@code 400 "Not found"}.
     */
    private synchronized OneCOData.Reply get(JsonObject body) {
        JsonValue raw = body.get("id");
        String id = raw instanceof JsonString text ? text.getString() : String.valueOf(raw);
        JsonObject deal = id.matches("\\d{1,9}") ? deals.get(Integer.parseInt(id)) : null;
        if (deal == null) {
            return new OneCOData.Reply(400, error("", "Not found"));
        }
        return new OneCOData.Reply(200, Json.createObjectBuilder().add("result", deal).add("time", time()).build());
    }

    /**
     * {@code crm.deal.update} (b24-rest-docs {@code api-reference/crm/deals/crm-deal-update.md}): {@code id} and
     * {@code fields}; {@code {"result": true}}; errors 400 {@code "ID is not defined or invalid"},
     * {@code "Not found"}, {@code "Parameter 'fields' must be array."}. A move into a lost stage is counted:
     * apart when the deal was in that stage already.
     */
    private synchronized OneCOData.Reply update(JsonObject body) {
        JsonValue raw = body.get("id");
        String id = raw instanceof JsonString text ? text.getString() : String.valueOf(raw);
        if (!id.matches("[1-9]\\d{0,8}")) {
            return new OneCOData.Reply(400, error("", "ID is not defined or invalid"));
        }
        JsonObject deal = deals.get(Integer.parseInt(id));
        if (deal == null) {
            return new OneCOData.Reply(400, error("", "Not found"));
        }
        if (!(body.get("fields") instanceof JsonObject fields)) {
            return new OneCOData.Reply(400, error("", "Parameter 'fields' must be array."));
        }
        JsonObjectBuilder updated = Json.createObjectBuilder(deal);
        fields.forEach((name, value) -> {
            if (UPDATABLE.contains(name) && value instanceof JsonString) {
                updated.add(name, value);
            }
        });
        if (fields.get("STAGE_ID") instanceof JsonString stage && LOST.matcher(stage.getString()).matches()) {
            changes.count(LOST_KIND, id, stage.getString().equals(deal.getString("STAGE_ID", "")));
        }
        deals.put(Integer.parseInt(id), updated.build());
        events.dealChanged("ONCRMDEALUPDATE", Integer.parseInt(id));
        return new OneCOData.Reply(200, Json.createObjectBuilder().add("result", true).add("time", time()).build());
    }

    private int store(JsonObject fields) {
        int id = nextId++;
        if (fields.get("ORIGIN_ID") instanceof JsonString origin) {
            byOrigin.computeIfAbsent(origin.getString(), k -> new ArrayList<>()).add(id);
        }
        deals.put(id, Json.createObjectBuilder(fields)
                .add("ID", Integer.toString(id))
                .add("STAGE_ID", "NEW")
                .add("DATE_CREATE", OffsetDateTime.now(ZoneOffset.ofHours(3)).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME))
                .build());
        return id;
    }

    private synchronized OneCOData.Reply list(JsonObject body) {
        JsonObject filter = body.containsKey("filter") ? body.getJsonObject("filter") : JsonValue.EMPTY_JSON_OBJECT;
        List<JsonObject> matching = candidates(filter).stream()
                .filter(deal -> filter.entrySet().stream().allMatch(f -> matches(deal, f.getKey(), f.getValue())))
                .toList();
        int start = body.getInt("start", 0);
        JsonArrayBuilder page = Json.createArrayBuilder();
        matching.stream().skip(start).limit(PAGE).forEach(deal -> page.add(select(deal, body)));
        JsonObjectBuilder answer = Json.createObjectBuilder().add("result", page).add("total", matching.size());
        if (start + PAGE < matching.size()) {
            answer.add("next", start + PAGE);
        }
        return new OneCOData.Reply(200, answer.add("time", time()).build());
    }

    /** The deals a filter on ORIGIN_ID can match, from the index, in the order they were made; otherwise every deal. */
    private List<JsonObject> candidates(JsonObject filter) {
        List<String> keys = filter.get("ORIGIN_ID") instanceof JsonString key ? List.of(key.getString())
                : filter.get("@ORIGIN_ID") instanceof JsonArray any ? any.stream().filter(JsonString.class::isInstance)
                .map(k -> ((JsonString) k).getString()).toList() : null;
        if (keys == null) {
            return List.copyOf(deals.values());
        }
        return keys.stream().distinct().flatMap(k -> byOrigin.getOrDefault(k, List.of()).stream()).sorted().map(deals::get).toList();
    }

    /**
     * One condition of a list's filter (b24-rest-docs {@code api-reference/crm/deals/crm-deal-list.md}): {@code @FIELD}
     * with an array is IN, a plain {@code FIELD} is equality; the portal's other prefixes are not served here.
     */
    private static boolean matches(JsonObject deal, String field, JsonValue value) {
        if (field.startsWith("@") && value instanceof JsonArray any) {
            return deal.containsKey(field.substring(1)) && any.contains(deal.get(field.substring(1)));
        }
        return value.equals(deal.get(field));
    }

    private static JsonObject select(JsonObject deal, JsonObject body) {
        if (!body.containsKey("select")) {
            return deal;
        }
        JsonObjectBuilder selected = Json.createObjectBuilder();
        body.getJsonArray("select").getValuesAs(JsonString::getString).stream()
                .filter(deal::containsKey).forEach(f -> selected.add(f, deal.get(f)));
        return selected.build();
    }

    /** The external keys a request carries: the {@code ORIGIN_ID} of an add, or those a list filters on. */
    private static List<String> keys(String method, JsonObject body) {
        if ("crm.deal.add".equals(method) && body.get("fields") instanceof JsonObject fields && fields.get("ORIGIN_ID") instanceof JsonString key) {
            return List.of(key.getString());
        }
        if ("crm.deal.list".equals(method) && body.get("filter") instanceof JsonObject filter) {
            if (filter.get("ORIGIN_ID") instanceof JsonString key) {
                return List.of(key.getString());
            }
            if (filter.get("@ORIGIN_ID") instanceof JsonArray keys) {
                return keys.stream().filter(JsonString.class::isInstance).map(k -> ((JsonString) k).getString()).toList();
            }
        }
        return List.of();
    }

    /** The documented system errors for a status an armed fault asks for. */
    private static OneCOData.Reply limitError(int status) {
        JsonObject body = switch (status) {
            case 503 -> error("QUERY_LIMIT_EXCEEDED", "Too many requests");
            case 429 -> error("OPERATION_TIME_LIMIT", "Method is blocked due to operation time limit.");
            case 500 -> error("INTERNAL_SERVER_ERROR", "Internal server error");
            case 401 -> error("expired_token", "The access token provided has expired.");
            case 403 -> error("ACCESS_DENIED", "REST API is available only on commercial plans.");
            default -> error("", "Access denied");
        };
        return new OneCOData.Reply(status, body);
    }

    /** A successful answer carries the call's {@code time}, as every method's does. */
    private static OneCOData.Reply withTime(OneCOData.Reply reply) {
        return reply.status() != 200 ? reply
                : new OneCOData.Reply(200, Json.createObjectBuilder(reply.body()).add("time", time()).build());
    }

    private static JsonObject time() {
        return Json.createObjectBuilder().add("start", System.currentTimeMillis() / 1000.0).build();
    }

    static JsonObject error(String code, String description) {
        return Json.createObjectBuilder().add("error", code).add("error_description", description).build();
    }
}
