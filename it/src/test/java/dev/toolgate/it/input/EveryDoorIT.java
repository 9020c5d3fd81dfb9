package dev.toolgate.it.input;

import static org.junit.jupiter.api.Assertions.assertAll;
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
import org.yaml.snakeyaml.Yaml;

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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every door holds the same line. The REST API's methods are read from the application's own OpenAPI document
 * (which {@code OpenApiDocumentTest} holds to every resource method), the MCP tools from the endpoint's own
 * {@code tools/list}; each is fed the same table of hostile values — in each path parameter, each query parameter,
 * each header it documents, each member of its JSON body, each tool argument — by every principal; a typed query
 * parameter also gets instants and numbers out of range. Each REST method's valid request is accepted first (the
 * control), then every probe is answered exactly as docs/input.md says — its status and problem type — and the number
 * sent is the number the document calls for. An MCP answer is an error result or a JSON-RPC error, never a 5xx. The
 * journal holds not one row more; nothing hostile reaches an exported span or the gateway's log.
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
    /** Typed parameters' own hostile values: instants outside any calendar or without an offset, numbers outside what a column holds. */
    private static final List<String> BAD_INSTANTS = List.of("%2B999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z", "0000-00-00T00:00:00Z",
            "2026-01-01T00:00:00");
    private static final List<String> BAD_NUMBERS = List.of("99999999999999999999999", "-1", "0", "201", "1e400", "0x10");
    private static final List<String> PRINCIPALS = List.of("agent-a", "approver", "operator", "auditor", "admin");
    /**
     * Fewer probes than this per principal means the document was not read whole, its types included: 11 path
     * parameters, 8 query parameters (a date-time and an integer among them), 4 headers, 20 string body members and
     * 9 methods with none of these gave 434 when this was set.
     */
    private static final int MINIMUM_PROBES = 434;
    /** Valid values: a key no operation or process has, an id no approval, run or principal has. */
    private static final Map<String, String> VALID_PATH = Map.of("key", "test:every-door:v1", "id", "1");
    private static final Map<String, String> VALID_QUERY = Map.of("key", "test:every-door:v1", "status", "running",
            "before", "2026-01-01T00:00:00Z", "before_key", "test:every-door:v1", "limit", "10", "reason", "r");
    private static final Answer FORBIDDEN = new Answer(403, "forbidden");
    private static final Answer INVALID = new Answer(400, "invalid-request");
    private static final Answer CARD_REJECTED = new Answer(422, "card-number-rejected");
    /** Payara's own 400 page, before any application code: docs/input.md. */
    private static final Answer SERVER_PAGE = new Answer(400, null);
    private static final Set<String> PAYARA_REFUSES_IN_A_PATH = Set.of("NUL", "bytes that are not UTF-8", "a lone surrogate");
    /** Members that name something declared: any value not among the declared is answered as unknown. */
    private static final Map<String, Answer> NAMED = Map.of("operation", new Answer(400, "unknown-operation"),
            "target", new Answer(400, "unknown-target"), "process", new Answer(400, "unknown-process"));
    /**
     * Each method's answer to its valid request from a principal it admits, in the document's order: the payment is
     * approved, then declined (approved is still awaiting the agent's call); the reconcile run started is run 1. A key or
     * id that does not exist is answered by the door only after every check on the input passed.
     */
    private static final Map<String, Answer> CONTROLS = Map.ofEntries(
            Map.entry("post /v1/operations", new Answer(201, null)),
            Map.entry("get /v1/operations", new Answer(404, "operation-not-found")),
            Map.entry("get /v1/operations/{key}", new Answer(404, "operation-not-found")),
            Map.entry("post /v1/operations/{key}/resume", new Answer(404, "operation-not-found")),
            Map.entry("post /v1/operations/{key}/resolve", new Answer(404, "operation-not-found")),
            Map.entry("post /v1/processes", new Answer(202, null)),
            Map.entry("get /v1/processes", new Answer(200, null)),
            Map.entry("get /v1/processes/{key}", new Answer(404, "process-not-found")),
            Map.entry("post /v1/processes/{key}/resume", new Answer(404, "process-not-found")),
            Map.entry("post /v1/processes/resume", new Answer(404, "process-not-found")),
            Map.entry("post /v1/processes/{key}/resolve", new Answer(404, "process-not-found")),
            Map.entry("get /v1/process-types", new Answer(200, null)),
            Map.entry("get /v1/approvals", new Answer(200, null)),
            Map.entry("post /v1/approvals", new Answer(201, null)),
            Map.entry("post /v1/approvals/declines", new Answer(200, null)),
            Map.entry("get /v1/approvals/{id}", new Answer(404, "approval-not-found")),
            Map.entry("delete /v1/approvals/{id}", new Answer(404, "approval-not-found")),
            Map.entry("get /v1/escalations", new Answer(200, null)),
            Map.entry("post /v1/reconciliations", new Answer(202, null)),
            Map.entry("get /v1/reconciliations/{id}", new Answer(200, null)),
            Map.entry("get /v1/principals", new Answer(200, null)),
            Map.entry("post /v1/principals", new Answer(201, null)),
            Map.entry("delete /v1/principals/{id}", new Answer(404, "principal-not-found")),
            Map.entry("post /v1/principals/{id}/rotate", new Answer(404, "principal-not-found")),
            Map.entry("get /metrics", new Answer(200, null)),
            Map.entry("get /health/live", new Answer(200, null)),
            Map.entry("get /health/ready", new Answer(200, null)),
            Map.entry("get /openapi.yaml", new Answer(200, null)));

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
        TestStack.discard(gateway);
        if (traces != null) {
            traces.close();
        }
    }

    @Test
    void everyRestMethodRefusesEveryHostileValueAsDocumentedAndStoresNothing() throws Exception {
        List<Route> routes = routes(get("/api/openapi.yaml", null).body());
        assertTrue(routes.size() >= 25, "the document lists the API's methods: " + routes);
        Map<String, Map<String, Answer>> controls = new TreeMap<>();
        List<String> refusedControls = new ArrayList<>();
        for (Route route : routes) {
            controls.put(route.name(), admitted(route, refusedControls));
        }
        Map<String, Long> before = rows(); // what the valid requests stored is not the probes'
        List<String> failures = new ArrayList<>();
        int sent = 0;
        int unsendable = 0;
        for (Route route : routes) {
            for (Probe probe : probes(route)) {
                for (String principal : PRINCIPALS) {
                    if (probe.beyondTheClient()) {
                        unsendable++; // the JDK's client refuses a control character and writes '?' for the rest
                        continue;
                    }
                    HttpResponse<String> answer;
                    try {
                        answer = send(probe, tokens.get(principal));
                    } catch (IllegalArgumentException clientRefused) {
                        failures.add("the client refused " + probe.what() + ", which it should send: " + clientRefused.getMessage());
                        continue;
                    }
                    sent++;
                    Answer expected = expected(probe, controls.get(route.name()).get(principal));
                    Answer got = Answer.of(answer);
                    if (!expected.equals(got)) {
                        failures.add(probe.what() + " by " + principal + ": expected " + expected + ", got " + got + " " + abbreviated(answer.body()));
                    }
                }
            }
        }
        int[] planned = plannedProbes(routes);
        System.out.printf("every door, REST: %d methods, %d hostile requests sent, %d the client cannot send, %d not refused as documented%n",
                routes.size(), sent, unsendable, failures.size());
        int sentInAll = sent;
        int unsendableInAll = unsendable;
        assertAll(
                () -> assertEquals(List.of(), refusedControls, "every method's valid request accepted by those it admits, 403 for the rest"),
                () -> assertEquals(new TreeSet<>(bodies.keySet()), routes.stream().filter(Route::hasBody).map(Route::name)
                        .collect(Collectors.toCollection(TreeSet::new)), "the methods the document says take a body are those given one here"),
                () -> assertTrue(failures.isEmpty(), failures.size() + " answers not as documented:\n"
                        + String.join("\n", failures.subList(0, Math.min(80, failures.size())))),
                () -> assertEquals(planned[0] * PRINCIPALS.size(), sentInAll, "every probe the document calls for, sent by every principal"),
                () -> assertEquals(planned[1] * PRINCIPALS.size(), unsendableInAll, "the header values no HTTP client sends, and only those"),
                () -> assertTrue(sentInAll >= MINIMUM_PROBES * PRINCIPALS.size(), "the document was read whole, its types too: "
                        + sentInAll / PRINCIPALS.size() + " probes, fewer than " + MINIMUM_PROBES));
        assertEquals(before, rows(), "no row stored by a refused request");
        nothingHostileLeft();
    }

    /**
     * Each principal's answer to the route's valid request (every parameter valid, its valid body), the control that
     * shows a refusal is the probe's doing: the route's answer in {@link #CONTROLS} — 2xx, or the domain's own answer for
     * a key or id that does not exist, given only once every check on the input passed — for at least one principal,
     * 403 forbidden for the others. A principal refused so is refused so whatever its body holds.
     */
    private static Map<String, Answer> admitted(Route route, List<String> wrong) throws Exception {
        Map<String, Answer> answers = new LinkedHashMap<>();
        Probe control = new Probe(route.name() + " valid", route.verb(), route.valid(Map.of()), Map.of(), body(route, null, null), Where.UNREAD, null);
        for (String principal : PRINCIPALS) {
            answers.put(principal, Answer.of(send(control, tokens.get(principal))));
        }
        Answer accepted = CONTROLS.get(route.name());
        if (accepted == null || !answers.containsValue(accepted)
                || !answers.values().stream().allMatch(answer -> answer.equals(accepted) || answer.equals(FORBIDDEN))) {
            wrong.add(route.name() + ": expected " + accepted + " (403 forbidden for those it does not admit), got " + answers);
        }
        return answers;
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

    /**
     * Every probe of one method: each hostile value in each of its path parameters, query parameters (with the typed
     * parameters' own: instants, numbers), documented headers and body members, the rest valid.
     */
    private static List<Probe> probes(Route route) {
        List<Probe> probes = new ArrayList<>();
        for (String name : route.pathParameters()) {
            for (Hostile hostile : TABLE) {
                probes.add(new Probe(route.name() + " with " + hostile.name() + " in {" + name + "}", route.verb(),
                        route.valid(Map.of("{" + name + "}", hostile.url())), Map.of(), body(route, null, null), Where.PATH, hostile.name()));
            }
        }
        route.query().forEach((name, type) -> {
            for (Hostile hostile : TABLE) {
                probes.add(new Probe(route.name() + " with " + hostile.name() + " in ?" + name, route.verb(),
                        route.valid(Map.of(name, hostile.url())), Map.of(), body(route, null, null), Where.QUERY, hostile.name()));
            }
            for (String value : typed(type)) {
                probes.add(new Probe(route.name() + " with ?" + name + "=" + value, route.verb(), route.valid(Map.of(name, value)),
                        Map.of(), body(route, null, null), Where.TYPED_QUERY, value));
            }
        });
        for (String header : route.headers()) {
            for (Hostile hostile : TABLE) {
                if (hostile.json() != null) { // bytes that are not UTF-8 have no text form to put in a header
                    String value = ((JsonString) Json.createReader(new StringReader("[\"" + hostile.json() + "\"]")).readArray().get(0)).getString();
                    probes.add(new Probe(route.name() + " with " + hostile.name() + " in " + header, route.verb(), route.valid(Map.of()),
                            Map.of(header, value), body(route, null, null), Where.HEADER, hostile.name()));
                }
            }
        }
        if (route.hasBody() && bodies.containsKey(route.name())) {
            for (String member : members(Json.createReader(new StringReader(bodies.get(route.name()))).readObject())) {
                for (Hostile hostile : TABLE) {
                    if (hostile.json() != null) {
                        probes.add(new Probe(route.name() + " with " + hostile.name() + " in " + member, route.verb(), route.valid(Map.of()),
                                Map.of(), body(route, member, hostile.json()), member.startsWith("payload.") ? Where.PAYLOAD : Where.BODY, hostile.name()));
                    }
                }
            }
        }
        if (probes.isEmpty()) { // a method with no parameters: the hostile value in a query it does not read
            for (Hostile hostile : TABLE) {
                probes.add(new Probe(route.name() + " with " + hostile.name() + " in an unread ?x=", route.verb(),
                        route.valid(Map.of("x", hostile.url())), Map.of(), body(route, null, null), Where.QUERY, hostile.name()));
            }
        }
        return probes;
    }

    /** A typed parameter's own hostile values, by its schema's format or type. */
    private static List<String> typed(String type) {
        return switch (type) {
            case "date-time" -> BAD_INSTANTS;
            case "integer" -> BAD_NUMBERS;
            default -> List.of();
        };
    }

    /**
     * How many probes the document calls for, counted from the routes alone (not from {@link #probes}): {sendable,
     * beyond the client}, per principal. A header value that is not printable ASCII is beyond the JDK's client, which
     * refuses a control character and writes '?' for anything else (the server would judge a harmless '?'): such a
     * probe is counted, not sent (such bytes over a raw socket: {@code BadInputIT}).
     */
    private static int[] plannedProbes(List<Route> routes) {
        long jsonValues = TABLE.stream().filter(h -> h.json() != null).count();
        long headerBeyond = TABLE.stream().filter(h -> h.json() != null && !sendableInAHeader(h)).count();
        int sendable = 0;
        int beyond = 0;
        for (Route route : routes) {
            int before = sendable + beyond;
            sendable += route.pathParameters().size() * TABLE.size();
            for (String type : route.query().values()) {
                sendable += TABLE.size() + typed(type).size();
            }
            sendable += route.headers().size() * (jsonValues - headerBeyond);
            beyond += route.headers().size() * headerBeyond;
            if (route.hasBody() && bodies.containsKey(route.name())) {
                sendable += members(Json.createReader(new StringReader(bodies.get(route.name()))).readObject()).size() * jsonValues;
            }
            if (sendable + beyond == before) {
                sendable += TABLE.size();
            }
        }
        return new int[] {sendable, beyond};
    }

    private static boolean sendableInAHeader(Hostile hostile) {
        String value = ((JsonString) Json.createReader(new StringReader("[\"" + hostile.json() + "\"]")).readArray().get(0)).getString();
        return printableAscii(value);
    }

    private static boolean printableAscii(String value) {
        return value.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
    }

    /**
     * What each probe must be answered, as docs/input.md's table says. A path, query or header is judged by the edge
     * before any door: 422 card-number-rejected for a card number, 400 invalid-request for the rest; in a path, an
     * encoded NUL or bytes that are not UTF-8 never reach the application: Payara's HTTP layer answers its own 400 page.
     * A body member and a typed query parameter are the door's, after authorization: a principal refused the valid
     * request is refused this one the same way. A member that names a declared operation, target or process is looked
     * up among those declared, and any other value is unknown (docs/input.md).
     */
    private static Answer expected(Probe probe, Answer control) {
        boolean card = probe.hostile().startsWith("a card number");
        return switch (probe.where()) {
            case PATH -> card ? CARD_REJECTED : PAYARA_REFUSES_IN_A_PATH.contains(probe.hostile()) ? SERVER_PAGE : INVALID;
            case QUERY, HEADER -> card ? CARD_REJECTED : INVALID;
            case TYPED_QUERY -> control.equals(FORBIDDEN) ? FORBIDDEN : INVALID;
            case BODY, PAYLOAD -> control.equals(FORBIDDEN) ? FORBIDDEN : card ? CARD_REJECTED
                    : probe.hostile().equals("a lone surrogate") ? new Answer(400, "not-i-json")
                    : probe.where() == Where.PAYLOAD ? new Answer(400, "invalid-payload")
                    : NAMED.containsKey(probe.member()) ? NAMED.get(probe.member()) : INVALID;
            case UNREAD -> throw new IllegalStateException("a control is not a probe");
        };
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
        probe.headers().forEach(request::header); // IllegalArgumentException: a value the client will not send
        if (probe.verb().equals("post") && !probe.headers().containsKey("Idempotency-Key")) {
            request.header("Idempotency-Key", "test:every-door:" + UUID.randomUUID() + ":v1");
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

    /**
     * The document's methods, read as the YAML it is: each path's verbs, their path parameters, query parameters by
     * schema format or type ({@code date-time}, {@code integer}, else {@code string}), headers, and whether a body is
     * taken. A parameter given by {@code $ref} is looked up under components.parameters.
     */
    @SuppressWarnings("unchecked")
    static List<Route> routes(String document) {
        Map<String, Object> root = new Yaml().load(document);
        Map<String, Object> shared = (Map<String, Object>) ((Map<String, Object>) root.get("components")).get("parameters");
        List<Route> routes = new ArrayList<>();
        ((Map<String, Map<String, Object>>) root.get("paths")).forEach((path, verbs) -> verbs.forEach((verb, spec) -> {
            if (verbs.containsKey("servers") || !(spec instanceof Map)) {
                // a path served outside /api (targets' notifications, TargetNotificationsIT), or not a verb
                return;
            }
            Map<String, Object> method = (Map<String, Object>) spec;
            Map<String, String> query = new TreeMap<>();
            Set<String> required = new TreeSet<>();
            List<String> headers = new ArrayList<>();
            for (Object listed : (List<Object>) method.getOrDefault("parameters", List.of())) {
                Map<String, Object> parameter = (Map<String, Object>) listed;
                if (parameter.containsKey("$ref")) {
                    String ref = (String) parameter.get("$ref");
                    parameter = (Map<String, Object>) shared.get(ref.substring(ref.lastIndexOf('/') + 1));
                }
                String name = (String) parameter.get("name");
                Map<String, Object> schema = (Map<String, Object>) parameter.getOrDefault("schema", Map.of());
                switch ((String) parameter.get("in")) {
                    case "query" -> {
                        query.put(name, schema.containsKey("format") ? (String) schema.get("format") : (String) schema.getOrDefault("type", "string"));
                        if (Boolean.TRUE.equals(parameter.get("required"))) {
                            required.add(name);
                        }
                    }
                    case "header" -> headers.add(name);
                    default -> {
                        // path parameters: the template names them
                    }
                }
            }
            routes.add(new Route(verb, path, query, required, headers, method.containsKey("requestBody")));
        }));
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

    /** Where a probe puts its value, which says who judges it. */
    enum Where { PATH, QUERY, TYPED_QUERY, HEADER, BODY, PAYLOAD, UNREAD }

    /** An answer as the test judges it: the status and the problem type's last segment (null: not a problem document). */
    record Answer(int status, String type) {
        static Answer of(HttpResponse<String> response) {
            String type = null;
            if (response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
                String uri = Json.createReader(new StringReader(response.body())).readObject().getString("type", "");
                type = uri.substring(uri.lastIndexOf('/') + 1);
            }
            return new Answer(response.statusCode(), type);
        }

        @Override
        public String toString() {
            return status + " " + (type == null ? "(not a problem document)" : type);
        }
    }

    record Route(String verb, String path, Map<String, String> query, Set<String> requiredQuery, List<String> headers, boolean hasBody) {
        String name() {
            return verb + " " + path;
        }

        List<String> pathParameters() {
            List<String> names = new ArrayList<>();
            Matcher m = Pattern.compile("\\{([^}]+)}").matcher(path);
            while (m.find()) {
                names.add(m.group(1));
            }
            return names;
        }

        /**
         * The path with every parameter valid but those {@code replaced} ({@code "{name}"} for a path parameter, a
         * bare name for a query parameter, raw as it goes into the URL), its required query parameters valid.
         */
        String valid(Map<String, String> replaced) {
            String url = path;
            for (String name : pathParameters()) {
                url = url.replace("{" + name + "}", replaced.getOrDefault("{" + name + "}", VALID_PATH.get(name)));
            }
            StringBuilder q = new StringBuilder();
            for (String name : query.keySet()) {
                if (replaced.containsKey(name) || requiredQuery.contains(name)) {
                    q.append(q.length() == 0 ? "?" : "&").append(name).append('=').append(replaced.getOrDefault(name, VALID_QUERY.get(name)));
                }
            }
            replaced.forEach((name, value) -> {
                if (!name.startsWith("{") && !query.containsKey(name)) {
                    q.append(q.length() == 0 ? "?" : "&").append(name).append('=').append(value);
                }
            });
            return url + q;
        }
    }

    record Probe(String what, String verb, String path, Map<String, String> headers, String body, Where where, String hostile) {
        /** The body member a BODY probe puts its value in. */
        String member() {
            return what.substring(what.lastIndexOf(" in ") + 4);
        }

        /** A header value the JDK's client cannot carry as it is: it refuses a control character, writes '?' for the rest. */
        boolean beyondTheClient() {
            return headers.values().stream().anyMatch(v -> !printableAscii(v));
        }
    }
}
