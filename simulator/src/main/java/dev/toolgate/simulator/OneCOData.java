package dev.toolgate.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * 1C:Enterprise's standard OData interface for one infobase (docs/targets.md):
 * {@code /1c/<infobase>/odata/standard.odata/<EntitySet>?$format=json}, HTTP Basic, documents
 * created by POST with {@code Ref_Key} in the answer, {@code $filter} with {@code eq}, {@code and}, {@code or} and parentheses,
 * {@code $select}, and {@code odata.error} bodies. Like real OData, nothing here deduplicates:
 * two POSTs with the same key requisite make two documents.
 *
 * <p>A document is posted by {@code POST <set>(guid'<ref>')/Post}; an invoice's status lives in the
 * independent information register {@code InformationRegister_СтатусыДокументов}, one record per document
 * (its dimension): a write with the same dimension replaces the record, and it is read back by its key
 * {@code (Документ='<ref>', Документ_Type='StandardODATA.<set>')}. Nothing here deletes a document or
 * changes its {@code DeletionMark}: there is no PATCH, PUT or DELETE, and no create takes the field.
 */
final class OneCOData implements HttpHandler, SimulatedSystem {

    static final String SYSTEM = "1c";
    static final String ORGANIZATION_KEY = "7c1f5a4e-3b2d-4c8e-9f10-2a3b4c5d6e01";
    static final Map<String, String> CURRENCY_KEYS = Map.of(
            "RUB", "5e1d7a3c-0643-4f00-8000-000000000643",
            "USD", "5e1d7a3c-0840-4f00-8000-000000000840",
            "EUR", "5e1d7a3c-0978-4f00-8000-000000000978");

    private static final Pattern GUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern BY_KEY = Pattern.compile("(Document_[\\p{L}\\p{N}_]+)\\(guid'([0-9a-f-]{36})'\\)");
    private static final Pattern POST = Pattern.compile("(Document_[\\p{L}\\p{N}_]+)\\(guid'([0-9a-f-]{36})'\\)/Post");
    private static final Pattern DOCUMENT_SET = Pattern.compile("Document_[\\p{L}\\p{N}_]+");
    private static final Pattern RECORD_BY_KEY = Pattern.compile("(InformationRegister_[\\p{L}\\p{N}_]+)\\((.*)\\)");
    private static final Pattern KEY_PART = Pattern.compile("\\s*([\\p{L}\\p{N}_]+)\\s*=\\s*'((?:[^']|'')*)'\\s*");
    static final String STATUSES = "InformationRegister_СтатусыДокументов";
    /** The type prefix of a composite-type reference in standard OData: {@code StandardODATA.Document_…}. */
    private static final String TYPE_PREFIX = "StandardODATA.";
    private static final String CANCELLED = "Отменен";
    private static final Set<String> INVOICE_STATUSES = Set.of("НеОплачен", "ОплаченЧастично", "Оплачен", CANCELLED);
    static final String POSTING = "posting";
    static final String CANCELLATION = "cancellation";
    private static final Set<String> REFERENCES = Set.of("Организация_Key", "Контрагент_Key", "ВалютаДокумента_Key");

    private final String root;
    private final String serviceRoot;
    private final String authorization;
    private final String keyRequisite;
    private final Faults faults;
    private final Map<String, Map<String, JsonObject>> sets = new ConcurrentHashMap<>();
    /**
     * Each set's refs by key-requisite value (written once, at creation), in creation order: a real infobase answers an
     * {@code eq} on an indexed requisite from its index, and a scan under the lock would make callers wait on the set's size.
     */
    private final Map<String, Map<String, List<String>>> byKeyRequisite = new ConcurrentHashMap<>();
    private final CallCounter calls = new CallCounter();
    private final StateChanges changes = new StateChanges(); // postings of a document, writes of "Отменен" for it
    private final AtomicInteger numbers = new AtomicInteger();

    OneCOData(String infobase, String user, String password, String keyRequisite, Faults faults) {
        this.root = "/" + infobase + "/odata/standard.odata/";
        this.serviceRoot = "/" + infobase + "/hs/agentgw/v1/documents/";
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.keyRequisite = keyRequisite;
        this.faults = faults;
        reset();
    }

    @Override
    public String name() {
        return SYSTEM;
    }

    @Override
    public synchronized void reset() {
        sets.clear();
        byKeyRequisite.clear();
        calls.clear();
        changes.clear();
        numbers.set(0);
        catalog("Catalog_Организации").put(ORGANIZATION_KEY, Json.createObjectBuilder()
                .add("Ref_Key", ORGANIZATION_KEY).add("Description", "ООО \"Ромашка\"").build());
        CURRENCY_KEYS.forEach((code, ref) -> catalog("Catalog_Валюты").put(ref,
                Json.createObjectBuilder().add("Ref_Key", ref).add("Code", code).build()));
        counterparty("0f0e0d0c-0000-4000-8000-000000000001", "7707083893");
        counterparty("0f0e0d0c-0000-4000-8000-000000000002", "7736207543");
        counterparty("0f0e0d0c-0000-4000-8000-000000000005", "500100732259"); // a person: 12 digits
        // two cards with one INN: real infobases have them, and a caller must not pick one at random
        counterparty("0f0e0d0c-0000-4000-8000-000000000003", "5001000001");
        counterparty("0f0e0d0c-0000-4000-8000-000000000004", "5001000001");
    }

    @Override
    public synchronized List<String> effects(String key) {
        List<String> ids = new ArrayList<>();
        byKeyRequisite.forEach((set, refs) -> ids.addAll(refs.getOrDefault(key, List.of())));
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
        return Set.of(POSTING, CANCELLATION);
    }

    @Override
    public int[] stateChanges(String kind, String object) {
        return changes.of(kind, object);
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String path = SimHttp.path(exchange, "/" + SYSTEM);
        if (path.startsWith(serviceRoot)) {
            service(exchange);
            return;
        }
        if (!path.startsWith(root)) {
            SimHttp.send(exchange, 404, error("-1", "Не найден ресурс " + path));
            return;
        }
        if (!authorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"1C:Enterprise\"");
            SimHttp.send(exchange, 401, "", "text/plain");
            return;
        }
        String resource = path.substring(root.length());
        String method = exchange.getRequestMethod();
        Map<String, String> query = SimHttp.query(exchange);
        String body = SimHttp.body(exchange);
        List<String> keys = keys(method, query, body);
        // a look-up of several keys is one request that reaches each: counted for every key it asks for
        FaultRunner.answer(exchange, faults, SYSTEM, method + " " + path + " " + query + " " + body,
                fault -> keys.forEach(key -> calls.count(key, "POST".equals(method), fault)),
                fault -> route(method, resource, query, body, fault),
                status -> new Reply(status, error(status == 500 ? "-1" : "0", "Ошибка, заданная симулятору")));
    }

    /**
     * The hardened 1C deployment (docs/targets.md): an HTTP service of the infobase,
     * {@code PUT …/hs/agentgw/v1/documents/{key}} looks the document up by the key requisite and creates it
     * only when absent, under the infobase's lock, so a re-send with the same key is always safe;
     * {@code GET} answers {@code {"items": [...]}} for the key. Written by the integrator, so its error body
     * is its own: {@code {"error": code, "message": …}}.
     */
    private void service(HttpExchange exchange) throws IOException {
        if (!authorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"1C:Enterprise\"");
            SimHttp.send(exchange, 401, "", "text/plain");
            return;
        }
        String raw = exchange.getRequestURI().getRawPath();
        String key = SimHttp.decode(raw.substring(raw.indexOf("/hs/agentgw/v1/documents/") + "/hs/agentgw/v1/documents/".length()));
        String method = exchange.getRequestMethod();
        String body = SimHttp.body(exchange);
        // the service looks the key up before it creates: a repeated PUT is safe by design, so a checker may allow it
        FaultRunner.answer(exchange, faults, SYSTEM, method + " hs " + key + " " + body,
                fault -> calls.count(key, "PUT".equals(method), fault, true),
                fault -> switch (method) {
                    case "PUT" -> lookUpOrCreate(key, body, fault != null && fault.kind() == Fault.Kind.DUPLICATE);
                    case "GET" -> byKey(key);
                    default -> new Reply(405, serviceError("method_not_allowed", "PUT or GET"));
                },
                status -> new Reply(status, serviceError("simulated", "Ошибка, заданная симулятору")));
    }

    private synchronized Reply lookUpOrCreate(String key, String body, boolean twice) {
        List<JsonObject> existing = withKey(key);
        if (!existing.isEmpty()) {
            return new Reply(200, serviceView(existing.get(0), false));
        }
        JsonObject request = SimHttp.object(body);
        if (request == null || !(request.get("amount_minor") instanceof JsonNumber amount) || amount.longValue() <= 0
                || !(request.get("currency") instanceof JsonString currency) || !CURRENCY_KEYS.containsKey(currency.getString())
                || !(request.get("order_id") instanceof JsonString order)) {
            return new Reply(400, serviceError("invalid_request", "order_id, amount_minor > 0 and a known currency are required"));
        }
        JsonObject fields = Json.createObjectBuilder()
                .add("Организация_Key", ORGANIZATION_KEY)
                .add("ВалютаДокумента_Key", CURRENCY_KEYS.get(currency.getString()))
                .add("СуммаДокумента", amount.bigDecimalValue().movePointLeft(2))
                .add("Комментарий", "Заказ " + order.getString())
                .add(keyRequisite, key)
                .build();
        JsonObject created = store("Document_СчетНаОплатуПокупателю", fields);
        if (twice) {
            store("Document_СчетНаОплатуПокупателю", fields);
        }
        return new Reply(201, serviceView(created, true));
    }

    private synchronized Reply byKey(String key) {
        JsonArrayBuilder items = Json.createArrayBuilder();
        withKey(key).forEach(d -> items.add(serviceView(d, false)));
        return new Reply(200, Json.createObjectBuilder().add("items", items).build());
    }

    private List<JsonObject> withKey(String key) {
        return withKey("Document_СчетНаОплатуПокупателю", key);
    }

    private List<JsonObject> withKey(String set, String key) {
        Map<String, JsonObject> rows = catalog(set);
        return byKeyRequisite.getOrDefault(set, Map.of()).getOrDefault(key, List.of()).stream().map(rows::get).toList();
    }

    private static JsonObject serviceView(JsonObject document, boolean created) {
        return Json.createObjectBuilder().add("ref", document.getString("Ref_Key")).add("number", document.getString("Number"))
                .add("posted", document.getBoolean("Posted")).add("created", created).build();
    }

    private static JsonObject serviceError(String code, String message) {
        return Json.createObjectBuilder().add("error", code).add("message", message).build();
    }

    private Reply route(String method, String resource, Map<String, String> query, String body, Fault fault) {
        if (!"GET".equals(method) && !"POST".equals(method)) {
            // no PATCH, PUT, MERGE or DELETE: a document is never changed, marked for deletion or deleted here
            return new Reply(405, error("-1", "Метод " + method + " не поддерживается для " + resource));
        }
        Matcher byKey = BY_KEY.matcher(resource);
        if ("GET".equals(method) && byKey.matches()) {
            JsonObject document = find(byKey.group(1), byKey.group(2));
            return document == null ? new Reply(404, error("-1", "Объект не найден")) : new Reply(200, project(document, select(query)));
        }
        Matcher record = RECORD_BY_KEY.matcher(resource);
        if ("GET".equals(method) && record.matches()) {
            return record(record.group(1), record.group(2));
        }
        if ("GET".equals(method) && (resource.startsWith("Document_") || resource.startsWith("Catalog_")
                || resource.startsWith("InformationRegister_"))) {
            return list(resource, query);
        }
        Matcher post = POST.matcher(resource);
        if ("POST".equals(method) && post.matches()) {
            return post(post.group(1), post.group(2), query);
        }
        if ("POST".equals(method) && resource.equals(STATUSES)) {
            return writeStatus(body);
        }
        if ("POST".equals(method) && DOCUMENT_SET.matcher(resource).matches()) {
            boolean twice = fault != null && fault.kind() == Fault.Kind.DUPLICATE;
            return create(resource, body, twice);
        }
        return new Reply(405, error("-1", "Метод не поддерживается для " + resource));
    }

    private synchronized Reply create(String set, String body, boolean twice) {
        JsonObject fields = SimHttp.object(body);
        if (fields == null) {
            return new Reply(400, error("-1", "Ошибка разбора тела запроса"));
        }
        for (Map.Entry<String, JsonValue> field : fields.entrySet()) {
            String problem = invalid(field.getKey(), field.getValue());
            if (problem != null) {
                return new Reply(400, error("15", problem));
            }
        }
        JsonObject created = store(set, fields);
        if (twice) {
            store(set, fields);
        }
        return new Reply(201, created);
    }

    private String invalid(String name, JsonValue value) {
        if (REFERENCES.contains(name)) {
            return value instanceof JsonString s && GUID.matcher(s.getString()).matches()
                    ? null : "Неверное значение ссылки " + name;
        }
        return switch (name) {
            case "Date", "СрокОплаты", "Комментарий" -> value instanceof JsonString ? null : "Неверный тип свойства " + name;
            case "СуммаДокумента" -> value instanceof JsonNumber ? null : "Неверный тип свойства " + name;
            default -> name.equals(keyRequisite) && value instanceof JsonString ? null : "Неизвестное свойство " + name;
        };
    }

    /**
     * Posting (проведение): marks the document posted and answers it. Posting a posted document again
     * re-posts it (its movements are written anew): the same state, counted apart as a repeat.
     */
    private synchronized Reply post(String set, String ref, Map<String, String> query) {
        String mode = query.get("PostingModeOperational");
        if (mode != null && !mode.equals("true") && !mode.equals("false")) {
            return new Reply(400, error("-1", "Неверное значение параметра PostingModeOperational"));
        }
        JsonObject document = catalog(set).get(ref);
        if (document == null) {
            return new Reply(404, error("-1", "Объект не найден"));
        }
        changes.count(POSTING, ref, document.getBoolean("Posted", false));
        JsonObject posted = Json.createObjectBuilder(document).add("Posted", true).build();
        catalog(set).put(ref, posted);
        return new Reply(200, posted);
    }

    /** A write to the document status register (the class note): the document must exist, the status be the register's. */
    private synchronized Reply writeStatus(String body) {
        JsonObject fields = SimHttp.object(body);
        if (fields == null) {
            return new Reply(400, error("-1", "Ошибка разбора тела запроса"));
        }
        for (Map.Entry<String, JsonValue> field : fields.entrySet()) {
            String problem = invalidStatusField(field.getKey(), field.getValue());
            if (problem != null) {
                return new Reply(400, error("15", problem));
            }
        }
        for (String required : List.of("Документ", "Документ_Type", "Организация_Key", "Статус")) {
            if (!fields.containsKey(required)) {
                return new Reply(400, error("15", "Не заполнено свойство " + required));
            }
        }
        String ref = fields.getString("Документ");
        String type = fields.getString("Документ_Type");
        if (find(type.substring(TYPE_PREFIX.length()), ref) == null) {
            return new Reply(400, error("15", "Объект не найден: " + type + " " + ref));
        }
        if (!catalog("Catalog_Организации").containsKey(fields.getString("Организация_Key"))) {
            return new Reply(400, error("15", "Объект не найден: Организация_Key"));
        }
        String status = fields.getString("Статус");
        JsonObject previous = catalog(STATUSES).get(type + " " + ref);
        JsonObject record = Json.createObjectBuilder()
                .add("Документ", ref).add("Документ_Type", type)
                .add("Организация_Key", fields.getString("Организация_Key"))
                .add("Статус", status)
                .add("Комментарий", fields.getString("Комментарий", ""))
                .build();
        catalog(STATUSES).put(type + " " + ref, record);
        if (CANCELLED.equals(status)) {
            changes.count(CANCELLATION, ref, previous != null && CANCELLED.equals(previous.getString("Статус", null)));
        }
        return new Reply(201, record);
    }

    private static String invalidStatusField(String name, JsonValue value) {
        String text = value instanceof JsonString s ? s.getString() : null;
        boolean valid = switch (name) {
            case "Документ", "Организация_Key" -> text != null && GUID.matcher(text).matches();
            case "Документ_Type" -> text != null && text.startsWith(TYPE_PREFIX)
                    && DOCUMENT_SET.matcher(text.substring(TYPE_PREFIX.length())).matches();
            case "Статус" -> text != null && INVOICE_STATUSES.contains(text);
            case "Комментарий" -> text != null;
            default -> false;
        };
        if (valid) {
            return null;
        }
        return switch (name) {
            case "Документ", "Документ_Type", "Организация_Key", "Статус", "Комментарий" -> "Неверное значение свойства " + name;
            default -> "Неизвестное свойство " + name;
        };
    }

    /** A register record by its key, {@code (Документ='<ref>', Документ_Type='StandardODATA.<set>')}; 404 when there is none. */
    private synchronized Reply record(String register, String key) {
        Map<String, String> parts = new LinkedHashMap<>();
        for (String part : key.split(",")) {
            Matcher m = KEY_PART.matcher(part);
            if (!m.matches()) {
                return new Reply(400, error("-1", "Ошибка разбора ключа записи"));
            }
            parts.put(m.group(1), m.group(2).replace("''", "'"));
        }
        if (!parts.containsKey("Документ") || !parts.containsKey("Документ_Type")) {
            return new Reply(400, error("-1", "Ошибка разбора ключа записи"));
        }
        JsonObject found = catalog(register).get(parts.get("Документ_Type") + " " + parts.get("Документ"));
        return found == null ? new Reply(404, error("-1", "Запись не найдена")) : new Reply(200, found);
    }

    private synchronized JsonObject find(String set, String ref) {
        return catalog(set).get(ref);
    }

    private JsonObject store(String set, JsonObject fields) {
        String ref = UUID.randomUUID().toString();
        JsonObject document = Json.createObjectBuilder(fields)
                .add("Ref_Key", ref)
                .add("Number", String.format("0000-%06d", numbers.incrementAndGet()))
                .add("Posted", false)
                .add("DeletionMark", false)
                .build();
        catalog(set).put(ref, document);
        String key = fields.getString(keyRequisite, null);
        if (key != null) {
            byKeyRequisite.computeIfAbsent(set, s -> new ConcurrentHashMap<>()).computeIfAbsent(key, k -> new ArrayList<>()).add(ref);
        }
        return document;
    }

    private Reply list(String set, Map<String, String> query) {
        String filter = query.getOrDefault("$filter", "");
        List<Map<String, String>> anyOf = filter.isBlank() ? List.of(Map.of()) : ODataFilter.alternatives(filter);
        if (anyOf == null) {
            return new Reply(400, error("-1", "Ошибка разбора выражения $filter"));
        }
        List<String> select = select(query);
        JsonArrayBuilder value = Json.createArrayBuilder();
        synchronized (this) {
            // every alternative names keys: the documents carrying them, each once, from the index (see byKeyRequisite)
            boolean byKeys = set.startsWith("Document_") && anyOf.stream().allMatch(all -> all.containsKey(keyRequisite));
            (byKeys ? anyOf.stream().map(all -> all.get(keyRequisite)).distinct().flatMap(key -> withKey(set, key).stream())
                    : catalog(set).values().stream())
                    .filter(row -> anyOf.stream().anyMatch(all -> all.entrySet().stream()
                            .allMatch(c -> row.get(c.getKey()) instanceof JsonString s && s.getString().equals(c.getValue()))))
                    .forEach(row -> value.add(project(row, select)));
        }
        return new Reply(200, Json.createObjectBuilder()
                .add("odata.metadata", "http://localhost" + root + "$metadata#" + set)
                .add("value", value).build());
    }

    private static List<String> select(Map<String, String> query) {
        return query.containsKey("$select") ? List.of(query.get("$select").split(",")) : null;
    }

    private static JsonObject project(JsonObject row, List<String> select) {
        if (select == null) {
            return row;
        }
        JsonObjectBuilder projected = Json.createObjectBuilder();
        select.stream().map(String::trim).filter(row::containsKey).forEach(f -> projected.add(f, row.get(f)));
        return projected.build();
    }

    /** The external keys a request carries: the key requisite of a create, or those its filter looks up. */
    private List<String> keys(String method, Map<String, String> query, String body) {
        if ("POST".equals(method)) {
            JsonObject fields = SimHttp.object(body);
            String key = fields == null ? null : fields.getString(keyRequisite, null);
            return key == null ? List.of() : List.of(key);
        }
        return ODataFilter.valuesOf(keyRequisite, query.get("$filter"));
    }

    private Map<String, JsonObject> catalog(String set) {
        return sets.computeIfAbsent(set, s -> new LinkedHashMap<>());
    }

    private void counterparty(String ref, String inn) {
        catalog("Catalog_Контрагенты").put(ref, Json.createObjectBuilder().add("Ref_Key", ref).add("ИНН", inn).build());
    }

    static JsonObject error(String code, String message) {
        return Json.createObjectBuilder().add("odata.error", Json.createObjectBuilder()
                .add("code", code)
                .add("message", Json.createObjectBuilder().add("lang", "ru").add("value", message))).build();
    }

    record Reply(int status, JsonObject body) {
    }
}
