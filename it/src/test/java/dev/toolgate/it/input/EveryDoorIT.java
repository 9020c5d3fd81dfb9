package dev.toolgate.it.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.McpHttp;
import dev.toolgate.it.support.OtlpReceiver;
import dev.toolgate.it.support.ReceivedSpan;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every door holds the same line. The REST API's methods are read from the application's own OpenAPI document
 * (which {@code OpenApiDocumentTest} holds to every resource method), the MCP tools from the endpoint's own
 * {@code tools/list}; each is fed the same table of hostile values — in each path parameter, each query parameter,
 * each header it documents, each member of its JSON body, each tool argument — by every principal. Every answer
 * is a 4xx (a problem document; for MCP an error result or a JSON-RPC error), never a 5xx; the journal holds
 * not one row more; nothing hostile reaches an exported span or the gateway's log.
 */
@Lane(3)
class EveryDoorIT {

    private static final String DATABASE = "every_door";
    private static final String CARD = "4111111111111111";
    /** Each hostile value, as JSON text (escaped) and as it goes into a URL (percent-encoded). */
    private static final List<Hostile> TABLE = List.of(
            new Hostile("NUL", "k\\u0000x", "k%00x"),
            new Hostile("a C0 control", "k\\u0001x", "k%01x"),
            new Hostile("DEL", "k\\u007fx", "k%7Fx"),
            new Hostile("a C1 control", "k\\u0085x", "k%C2%85x"),
            new Hostile("a lone surrogate", "k\\ud800x", "k%ED%A0%80x"),
            new Hostile("bytes that are not UTF-8", null, "k%FFx"),
            new Hostile("a card number", "t:pay:" + CARD + ":v1", "t:pay:" + CARD + ":v1"),
            new Hostile("a card number with spaces", "card 4111 1111 1111 1111", "card%204111%201111%201111%201111"),
            new Hostile("5,000 characters", "k".repeat(5000), "k".repeat(5000)));
    /** Typed parameters' own hostile values: instants outside any calendar, numbers outside what a column holds. */
    private static final List<String> BAD_INSTANTS = List.of("%2B999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z", "0000-00-00T00:00:00Z");
    private static final List<String> BAD_NUMBERS = List.of("99999999999999999999999", "-1", "1e400", "0x10");
    private static final List<String> PRINCIPALS = List.of("agent-a", "approver", "operator", "auditor", "admin");

    /**
     * A valid body for each documented method that takes one: the hostile value replaces one member at a time, so each
     * member is read by the door's own check. The approvals' name a payment that really awaits approval, so a value that
     * passed would be stored. A method added to the document without a body here fails the test.
     */
    private static Map<String, String> bodies;

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static OtlpReceiver traces;
    private static GatewayProcess gateway;
    private static Map<String, String> tokens;

    @BeforeAll
    static void start() throws Exception {
        traces = OtlpReceiver.start();
        Map<String, String> config = TestStack.underLoad(TestStack.configFor(TestStack.newDatabase(DATABASE)), 5000);
        config.putAll(OtlpReceiver.gatewayConfig(traces.endpoint()));
        config.put("toolgate.reconcile.interval-seconds", "0");
        gateway = TestStack.readyGateway(config, "every-door-gateway");
        tokens = new LinkedHashMap<>();
        for (String principal : PRINCIPALS) {
            tokens.put(principal, principal.equals("admin") ? TestStack.adminToken() : Credentials.token(gateway.baseUrl(), principal));
        }
        String payment = "test:payment.create:every-door-" + UUID.randomUUID() + ":v1";
        assertEquals(202, new Agent(gateway.baseUrl()).submit(payment, "{\"operation\":\"payment.create\",\"target\":\"yookassa\","
                + "\"payload\":{\"order_id\":\"o-1\",\"amount_minor\":1000,\"currency\":\"RUB\",\"description\":\"Order\"}}").status());
        String hash = new Agent(gateway.baseUrl(), "approver").find(payment).json().getString("request_hash");
        bodies = Map.of(
                "post /v1/operations", "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"o-1\",\"amount_minor\":100,\"currency\":\"RUB\"}}",
                "post /v1/operations/{key}/resolve", "{\"outcome\":\"succeeded\",\"target_object_id\":\"obj-1\",\"evidence\":\"called them\"}",
                "post /v1/processes", "{\"process\":\"order.prepay\",\"payload\":{\"order_id\":\"o-1\",\"amount_minor\":100,\"currency\":\"RUB\"}}",
                "post /v1/processes/{key}/resolve", "{\"outcome\":\"completed\",\"evidence\":\"called them\"}",
                "post /v1/approvals", "{\"operation_key\":\"" + payment + "\",\"request_hash\":\"" + hash + "\",\"expires_in_seconds\":600,\"note\":\"n\"}",
                "post /v1/approvals/declines", "{\"operation_key\":\"" + payment + "\",\"request_hash\":\"" + hash + "\",\"reason\":\"r\"}",
                "post /v1/principals", "{\"principal_id\":\"p-hostile\",\"tenant\":\"acme\",\"roles\":[\"agent\"]}");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.stop(gateway);
        if (traces != null) {
            traces.close();
        }
    }

    @Test
    void everyRestMethodRefusesEveryHostileValueWithA4xxAndStoresNothing() throws Exception {
        Map<String, Long> before = rows();
        List<String> failures = new ArrayList<>();
        int sent = 0;
        List<Route> routes = routes(get("/api/openapi.yaml", null).body());
        assertTrue(routes.size() >= 25, "the document lists the API's methods: " + routes);
        for (Route route : routes) {
            assertTrue(!route.hasBody() || bodies.containsKey(route.name()), "a valid body for " + route.name() + " in bodies");
            boolean reachedTheDoor = false;
            for (Probe probe : probes(route)) {
                for (String principal : PRINCIPALS) {
                    HttpResponse<String> answer;
                    try {
                        answer = send(probe, tokens.get(principal));
                    } catch (IllegalArgumentException clientRefused) {
                        continue; // a header value no HTTP client sends (a control character): the server never sees it
                    }
                    sent++;
                    int status = answer.statusCode();
                    reachedTheDoor |= status != 401 && status != 403;
                    if (status < 400 || status >= 500) {
                        failures.add(status + " for " + probe.what() + " by " + principal + ": " + abbreviated(answer.body()));
                    } else if (!answer.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")
                            && !(status == 400 && probe.what().contains(" in {") && !answer.body().startsWith("{"))) {
                        // the one exception: Payara's HTTP layer refuses a path holding an encoded NUL or bytes that are not
                        // UTF-8 with its own 400 page, before any application code (the edge included) could answer
                        failures.add(status + " without a problem document for " + probe.what() + " by " + principal);
                    }
                }
            }
            assertTrue(reachedTheDoor, route.name() + ": some principal's probes passed authorization");
        }
        System.out.printf("every door, REST: %d methods, %d hostile requests, %d not refused with a 4xx problem%n",
                routes.size(), sent, failures.size());
        assertTrue(failures.isEmpty(), failures.size() + " answers that were not a 4xx problem:\n" + String.join("\n",
                failures.subList(0, Math.min(40, failures.size()))));
        assertEquals(before, rows(), "no row stored by a refused request");
        nothingHostileLeft();
    }

    @Test
    void everyMcpToolRefusesEveryHostileArgumentWithAnErrorAndStoresNothing() throws Exception {
        Map<String, Long> before = rows();
        McpHttp mcp = new McpHttp(gateway.baseUrl(), "agent-a");
        JsonObject listed = McpHttp.json(McpHttp.send(mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")));
        List<JsonObject> tools = listed.getJsonObject("result").getJsonArray("tools").getValuesAs(JsonObject.class);
        assertTrue(tools.size() >= 5, "tools listed: " + tools.size());
        List<String> failures = new ArrayList<>();
        int sent = 0;
        int id = 2;
        for (JsonObject tool : tools) {
            JsonObject properties = tool.getJsonObject("inputSchema").getJsonObject("properties");
            for (String argument : properties == null ? List.<String>of() : properties.keySet()) {
                for (Hostile hostile : TABLE) {
                    if (hostile.json() == null) {
                        continue; // JSON text is Unicode: bytes that are not UTF-8 are the body's, below
                    }
                    String arguments = "{\"idempotency_key\":\"test:every-door:" + id + ":v1\",\"" + argument + "\":\"" + hostile.json() + "\"}";
                    String call = "{\"jsonrpc\":\"2.0\",\"id\":" + id++ + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
                            + tool.getString("name") + "\",\"arguments\":" + arguments + "}}";
                    HttpResponse<String> answer = McpHttp.send(mcp.post(call));
                    sent++;
                    String what = tool.getString("name") + "(" + argument + " = " + hostile.name() + ")";
                    if (answer.statusCode() >= 500) {
                        failures.add(answer.statusCode() + " for " + what);
                    } else if (answer.statusCode() == 200 && !refused(McpHttp.json(answer))) {
                        failures.add("not refused: " + what + ": " + abbreviated(answer.body()));
                    }
                }
            }
        }
        HttpResponse<String> badBytes = McpHttp.send(mcp.post(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"get_operation\",\"arguments\":{\"idempotency_key\":\"k\uFFFF\"}}}").getBytes(StandardCharsets.UTF_8)));
        assertTrue(badBytes.statusCode() < 500, "a noncharacter in the body: " + badBytes.statusCode());
        HttpResponse<String> query = McpHttp.send(mcp.request("/mcp?key=k%00x").header("Authorization", "Bearer " + tokens.get("agent-a"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")));
        assertEquals(400, query.statusCode(), "a NUL in /mcp's query: " + query.body());
        assertEquals(-32600, McpHttp.json(query).getJsonObject("error").getInt("code"), "answered as JSON-RPC");
        System.out.printf("every door, MCP: %d tools, %d hostile calls, %d not refused%n", tools.size(), sent, failures.size());
        assertTrue(failures.isEmpty(), String.join("\n", failures.subList(0, Math.min(40, failures.size()))));
        assertEquals(before, rows(), "no row stored by a refused call");
        nothingHostileLeft();
    }

    @Test
    void theConsolesPathsAreBehindTheSameEdgeSignedInOrNot() throws Exception {
        for (String path : List.of("/console/search?key=k%00x", "/console/operation?key=t:pay:" + CARD + ":v1", "/console/x%01y",
                "/console/reconcile?run=%FF")) {
            HttpResponse<String> answer = get(path, null);
            assertTrue(answer.statusCode() == 400 || answer.statusCode() == 422, path + ": " + answer.statusCode());
            assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), path + ": a page");
            assertFalse(answer.body().contains(CARD), path + ": the page does not quote it");
        }
    }

    private static boolean refused(JsonObject answer) {
        if (answer.containsKey("error")) {
            return true;
        }
        return answer.getJsonObject("result").getBoolean("isError", false);
    }

    /** Nothing hostile in what the gateway exported or logged: no card number, no control character in any attribute. */
    private static void nothingHostileLeft() throws IOException {
        traces.awaitQuiet(Duration.ofSeconds(2), Duration.ofSeconds(60));
        assertFalse(traces.exportedText().contains(CARD), "a card number in an exported span");
        for (ReceivedSpan span : traces.spans()) {
            for (Map.Entry<String, String> attribute : span.attributes().entrySet()) {
                assertTrue(attribute.getValue().chars().noneMatch(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f)),
                        "a control character in " + span.name() + "'s " + attribute.getKey());
            }
        }
        String log = Files.readString(Path.of("target", "every-door-gateway.log"), StandardCharsets.ISO_8859_1);
        assertFalse(log.contains(CARD), "a card number in the gateway's log");
        assertFalse(log.contains("4111 1111 1111 1111"), "a card number in the gateway's log");
    }

    /** Every probe of one method: each hostile value in each of its parameters and body members, the rest valid. */
    private static List<Probe> probes(Route route) {
        List<Probe> probes = new ArrayList<>();
        String valid = route.path().replaceAll("\\{[^}]+}", "test:every-door:v1");
        Matcher params = Pattern.compile("\\{([^}]+)}").matcher(route.path());
        while (params.find()) {
            String name = params.group(1);
            for (Hostile hostile : TABLE) {
                String path = route.path().replace("{" + name + "}", hostile.url()).replaceAll("\\{[^}]+}", "test:every-door:v1");
                probes.add(new Probe(route.name() + " with " + hostile.name() + " in {" + name + "}", route.verb(), path, Map.of(), body(route, null, null)));
            }
        }
        for (Map.Entry<String, String> query : route.query().entrySet()) {
            List<String> values = new ArrayList<>(TABLE.stream().map(Hostile::url).toList());
            if ("date-time".equals(query.getValue())) {
                values.addAll(BAD_INSTANTS);
            } else if ("integer".equals(query.getValue())) {
                values.addAll(BAD_NUMBERS);
            }
            for (String value : values) {
                probes.add(new Probe(route.name() + " with ?" + query.getKey() + "=" + abbreviated(value), route.verb(),
                        valid + "?" + query.getKey() + "=" + value, Map.of(), body(route, null, null)));
            }
        }
        for (String header : route.headers()) {
            for (Hostile hostile : TABLE) {
                String value = hostile.json() == null ? null
                        : ((JsonString) Json.createReader(new StringReader("[\"" + hostile.json() + "\"]")).readArray().get(0)).getString();
                // a header goes on the wire as ASCII: the client refuses a control character and sends '?' for the rest
                if (value != null && value.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
                    probes.add(new Probe(route.name() + " with " + hostile.name() + " in " + header, route.verb(), valid,
                            Map.of(header, value), body(route, null, null)));
                }
            }
        }
        if (route.hasBody()) {
            JsonObject base = Json.createReader(new StringReader(bodies.get(route.name()))).readObject();
            for (String member : members(base)) {
                for (Hostile hostile : TABLE) {
                    if (hostile.json() != null) {
                        probes.add(new Probe(route.name() + " with " + hostile.name() + " in " + member, route.verb(), valid,
                                Map.of(), body(route, member, hostile.json())));
                    }
                }
            }
        }
        if (probes.isEmpty()) { // a method with no parameters: the hostile value in a query it does not read
            for (Hostile hostile : TABLE) {
                probes.add(new Probe(route.name() + " with " + hostile.name() + " in an unread ?x=", route.verb(), valid + "?x=" + hostile.url(),
                        Map.of(), body(route, null, null)));
            }
        }
        return probes;
    }

    /** Its string members, {@code payload.x} for the payload's. */
    private static List<String> members(JsonObject body) {
        List<String> members = new ArrayList<>();
        body.forEach((name, value) -> {
            if (value instanceof JsonString) {
                members.add(name);
            } else if (value instanceof JsonObject nested) {
                nested.forEach((inner, v) -> {
                    if (v instanceof JsonString) {
                        members.add(name + "." + inner);
                    }
                });
            }
        });
        return members;
    }

    /** The route's valid body with {@code member}'s value replaced by {@code json} (JSON string content), or null. */
    private static String body(Route route, String member, String json) {
        if (!route.hasBody()) {
            return null;
        }
        String body = bodies.get(route.name());
        if (member == null) {
            return body;
        }
        JsonObject base = Json.createReader(new StringReader(body)).readObject();
        String name = member.contains(".") ? member.substring(member.indexOf('.') + 1) : member;
        String old = "\"" + name + "\":\"" + (member.contains(".") ? base.getJsonObject(member.substring(0, member.indexOf('.'))).getString(name)
                : base.getString(name)) + "\"";
        return body.replace(old, "\"" + name + "\":\"" + json + "\"");
    }

    private static HttpResponse<String> send(Probe probe, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api" + probe.path()))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token);
        probe.headers().forEach(request::header);
        if (probe.verb().equals("post") && !probe.headers().containsKey("Idempotency-Key")) {
            request.header("Idempotency-Key", "test:every-door:" + System.nanoTime() + ":v1");
        }
        HttpRequest.BodyPublisher body = probe.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(probe.body());
        if (probe.body() != null) {
            request.header("Content-Type", "application/json");
        }
        return HTTP.send(request.method(probe.verb().toUpperCase(java.util.Locale.ROOT), body).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The document's methods: each path's verbs, their query parameters (with a type or format), headers and whether a body is taken. */
    static List<Route> routes(String document) {
        List<Route> routes = new ArrayList<>();
        String paths = document.substring(document.indexOf("\npaths:\n"), document.indexOf("\ncomponents:"));
        Matcher path = Pattern.compile("\n  (/[^:\n]*):\n").matcher(paths);
        List<int[]> starts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (path.find()) {
            starts.add(new int[] {path.start(), path.end()});
            names.add(path.group(1));
        }
        for (int i = 0; i < starts.size(); i++) {
            String section = paths.substring(starts.get(i)[1], i + 1 < starts.size() ? starts.get(i + 1)[0] : paths.length());
            Matcher verb = Pattern.compile("(?m)^    (get|post|delete|put|patch):$").matcher(section);
            List<Integer> at = new ArrayList<>();
            List<String> verbs = new ArrayList<>();
            while (verb.find()) {
                at.add(verb.start());
                verbs.add(verb.group(1));
            }
            for (int v = 0; v < at.size(); v++) {
                String method = section.substring(at.get(v), v + 1 < at.size() ? at.get(v + 1) : section.length());
                Map<String, String> query = new TreeMap<>();
                Matcher q = Pattern.compile("name: ([\\w-]+), in: query[^\n]*?(?:format: ([\\w-]+)|type: (integer))?[^\n]*\n").matcher(method);
                while (q.find()) {
                    query.put(q.group(1), q.group(2) != null ? q.group(2) : q.group(3) != null ? q.group(3) : "string");
                }
                List<String> headers = new ArrayList<>();
                Matcher h = Pattern.compile("name: ([\\w-]+), in: header").matcher(method);
                while (h.find()) {
                    headers.add(h.group(1));
                }
                routes.add(new Route(verbs.get(v), names.get(i), query, headers, method.contains("requestBody:")));
            }
        }
        return routes;
    }

    /** Rows in each table of the journal. */
    private static Map<String, Long> rows() throws Exception {
        Map<String, Long> rows = new TreeMap<>();
        try (Connection c = TestStack.connect(DATABASE);
             ResultSet tables = c.createStatement().executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")) {
            List<String> names = new ArrayList<>();
            while (tables.next()) {
                names.add(tables.getString(1));
            }
            for (String table : names) {
                try (ResultSet count = c.createStatement().executeQuery("SELECT count(*) FROM \"" + table + "\"")) {
                    count.next();
                    rows.put(table, count.getLong(1));
                }
            }
        }
        return rows;
    }

    private static String abbreviated(String text) {
        return text.length() > 160 ? text.substring(0, 160) + "…" : text;
    }

    record Hostile(String name, String json, String url) {
    }

    record Route(String verb, String path, Map<String, String> query, List<String> headers, boolean hasBody) {
        String name() {
            return verb + " " + path;
        }
    }

    record Probe(String what, String verb, String path, Map<String, String> headers, String body) {
    }
}
