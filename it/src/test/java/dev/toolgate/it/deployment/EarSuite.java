package dev.toolgate.it.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.AppServer;
import dev.toolgate.it.support.Await;
import dev.toolgate.it.support.Browser;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.Keycloak;
import dev.toolgate.it.support.McpHttp;
import dev.toolgate.it.support.McpSdk;
import dev.toolgate.it.support.OtlpReceiver;
import dev.toolgate.it.support.ProviderDown;
import dev.toolgate.it.support.RawHttp;
import dev.toolgate.it.support.Readiness;
import dev.toolgate.it.support.ReceivedSpan;
import dev.toolgate.it.support.RestartablePostgres;
import dev.toolgate.it.support.SignsPeopleIn;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The end-to-end suite every server must pass with the one EAR users deploy, configured as in
 * production (the journal on a pool the server manages, sized by the environment): the first checks of
 * any deployment (create once, replay the identical answer, refuse a changed payload), one
 * reconcile-job run, probes and metrics, the pool itself, people signing in to the console through a
 * real identity provider, and — last, on the journal's own PostgreSQL — the journal coming back by itself after
 * that PostgreSQL restarts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS) // one server for all tests of a class, started in @BeforeAll
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the restart last; the rest in no order of their own
@SignsPeopleIn
abstract class EarSuite {

    /** The pool's maximum, given to the server as TOOLGATE_DB_POOL_SIZE: well below the 16 concurrent calls below. */
    static final int POOL_SIZE = 4;

    /** The production deployment files ({@code deploy/} in the repository) docs/operations.md tells users to run. */
    static final Path DEPLOY = Path.of(System.getProperty("toolgate.deploy", "../deploy")).toAbsolutePath().normalize();

    /** Where every server of these suites exports its spans (one receiver: each test looks at its own trace). */
    static final OtlpReceiver TRACES = receiver();

    final SimulatorClient oneC = TestStack.targets();
    private Keycloak keycloak;
    private RestartablePostgres journal;
    private String journalUrl;
    private AppServer server;

    /** Starts the server as docs/operations.md says, with its journal at {@code journalUrl}, and deploys the EAR. */
    abstract AppServer deployed(String journalUrl) throws Exception;

    /** The server's name in file names: {@code payara-server}, {@code wildfly}. */
    abstract String serverName();

    /** Where this server's JSON formatter puts the gateway's fields in one log object. */
    abstract JsonObject gatewayFields(JsonObject logLine);

    @BeforeAll
    void deploy() throws Exception {
        keycloak = Keycloak.start(); // first: the server's environment names its issuer
        journal = RestartablePostgres.start(getClass().getSimpleName().toLowerCase(Locale.ROOT)); // one it may restart
        journalUrl = journal.jdbcUrl();
        server = deployed(journalUrl);
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            try {
                if (journal != null) {
                    journal.close();
                }
            } finally {
                if (keycloak != null) {
                    keycloak.close();
                }
            }
        }
    }

    String baseUrl() {
        return server.baseUrl();
    }

    /**
     * The server's environment for a journal at {@code jdbcUrl}: the gateway's settings, the pool's size,
     * the JNDI name of the server-managed datasource the journal is to use, and the console's identity provider.
     */
    Map<String, String> environment(String jdbcUrl, String dataSource) {
        Map<String, String> config = TestStack.configFor(jdbcUrl);
        config.put("toolgate.console.oidc.provider-uri", keycloak.issuer());
        config.put("toolgate.console.oidc.client-id", keycloak.clientId());
        config.put("toolgate.console.oidc.client-secret", keycloak.clientSecret());
        config.putAll(OtlpReceiver.gatewayConfig(TRACES.endpoint())); // tracing on, as docs/telemetry.md says
        config.put("toolgate.reconcile.interval-seconds", "0"); // the test starts the run itself
        if (!dataSource.isEmpty()) { // none: the WAR's own datasource
            config.put("toolgate.db.datasource", dataSource);
        }
        config.put("toolgate.db.pool-size", Integer.toString(POOL_SIZE));
        return LocalStack.asEnvironment(config);
    }

    /**
     * A person signs in to the console in a browser through the identity provider, by this server's own
     * Jakarta Security: an approver lands on the console as who they are, in their tenant, with a session
     * cookie scripts cannot read and other sites do not send; somebody the provider knows but who has no
     * console group is refused; and an agent's bearer token opens no console page, it is sent to sign in
     * like anybody else.
     */
    @Test
    void signsAPersonInToTheConsoleThroughTheIdentityProvider() {
        // 127.0.0.1 throughout, as the gateway's base URL: the sign-in's state is in the session cookie of that host
        String console = baseUrl() + "/console/";
        try (Browser alice = new Browser()) {
            alice.open(console).signIn("alice", "alice-pw");
            assertEquals("alice", alice.waitFor(By.id("signed-in-as")).getText());
            assertEquals("acme", alice.waitFor(By.id("tenant")).getText());
            assertEquals("/console/approvals", alice.waitFor(By.linkText("Approvals")).getDomAttribute("href"));
            alice.screenshot("ear-" + serverName() + "-console");
            Cookie session = alice.driver().manage().getCookieNamed("TOOLGATE_CONSOLE");
            assertNotNull(session, "cookies: " + alice.driver().manage().getCookies());
            assertTrue(session.isHttpOnly(), session.toString());
            // WildFly writes SameSite from the session cookie config; Payara omits it and ConsoleGuard sets the cookie again
            assertEquals("Lax", session.getSameSite(), session.toString());
        }
        try (Browser nora = new Browser()) {
            nora.open(console).signIn("nora", "nora-pw");
            nora.waitForTitle("No access to the console · Toolgate console"); // not Keycloak's h1, still shown meanwhile
            assertEquals("No access to the console", nora.waitFor(By.tagName("h1")).getText());
        }
        // Agent's client follows no redirect: the answer itself is what a caller with only a token gets
        Agent.Answer agent = new Agent(baseUrl()).send(HttpRequest.newBuilder(URI.create(baseUrl() + "/console/approvals")));
        String location = String.valueOf(agent.header("Location"));
        assertTrue(agent.status() >= 300 && agent.status() < 400, agent.status() + " " + agent.body());
        assertTrue(location.startsWith(keycloak.issuer() + "/protocol/openid-connect/auth?"), location);
        assertFalse(agent.body().contains("Approvals"), agent.body());
    }

    /**
     * The identity provider hung (its processes stopped: connections accepted, nothing answered): on this server too,
     * a page that says so, 503, and signing in again once it answers. ConsoleIT stops it outright.
     */
    @Test
    void signingInWithTheIdentityProviderHungAnswersAPageThatSaysSoOnThisServer() throws Exception {
        ProviderDown.signingInSaysSoAndRecovers(keycloak, keycloak::whileHung, baseUrl());
    }

    /** Every status line with its registered reason phrase on this server (on Payara Micro: StatusLinesIT). */
    @Test
    void answersWithRegisteredReasonPhrasesOnThisServer() throws Exception {
        String token = "Authorization: Bearer " + Credentials.token(baseUrl(), "agent-a");
        String key = "test:invoice.create:ear-lines-" + UUID.randomUUID() + ":v1";
        String submit = "POST /api/v1/operations HTTP/1.1\r\nContent-Type: application/json\r\n" + token + "\r\nIdempotency-Key: ";
        assertEquals("HTTP/1.1 201 Created", RawHttp.statusLine(baseUrl(), submit + key, Agent.invoice("order-ear-lines", 100)));
        assertEquals("HTTP/1.1 422 Unprocessable Content", RawHttp.statusLine(baseUrl(), submit + key, Agent.invoice("order-ear-lines", 200)));
        assertEquals("HTTP/1.1 413 Content Too Large", RawHttp.statusLine(baseUrl(), submit + key + "-big",
                Agent.invoice("a".repeat(70_000), 100)));
        assertEquals("HTTP/1.1 404 Not Found", RawHttp.statusLine(baseUrl(), "GET /api/v1/operations/" + key + "-none HTTP/1.1\r\n" + token, ""));
    }

    /**
     * A submission is served ahead of JAX-RS on this server (only that door says how large a body may be when it
     * cut one off without Content-Length); one that asks for another media type is still JAX-RS's, and is refused
     * alike.
     */
    @Test
    void servesSubmissionsAheadOfJaxRsAndLeavesNegotiationToItOnThisServer() {
        Agent agent = new Agent(baseUrl());
        byte[] big = Agent.invoice("a".repeat(70_000), 100).getBytes(StandardCharsets.UTF_8);
        for (String accept : List.of("application/json", "application/problem+json")) {
            Agent.Answer refused = agent.send(agent.operations().header("Idempotency-Key", "test:invoice.create:ear-chunked:v1")
                    .header("Content-Type", "application/json").header("Accept", accept)
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))));
            assertEquals(413, refused.status(), accept + ": " + refused.body());
            assertEquals("payload-too-large", refused.problem(), accept);
            assertEquals(accept.equals("application/json"), refused.json().containsKey("detail"), accept + " (the door's detail): " + refused.body());
        }
    }

    /**
     * Signing out ends both the console session and the person's session at the identity provider, and comes
     * back to the console's signed-out page; the way in again is the provider's sign-in.
     */
    @Test
    void signsAPersonOutOfTheConsoleAndTheIdentityProvider() {
        try (Browser oscar = new Browser()) {
            oscar.open(baseUrl() + "/console/").signIn("oscar", "oscar-pw");
            oscar.waitFor(By.id("signed-in-as"));
            oscar.waitFor(By.cssSelector("form.who button")).click();
            assertEquals("You are signed out of the console.", oscar.waitFor(By.id("signed-out")).getText());
            assertEquals(baseUrl() + "/console/signed-out", oscar.currentUrl());
            oscar.open(baseUrl() + "/console/").waitFor(By.id("kc-login"));
            // the sign-in page asks for the password anyway (prompt=login); the provider's session cookie says it ended
            assertNull(oscar.driver().manage().getCookieNamed("KEYCLOAK_SESSION"), oscar.currentUrl());
        }
    }

    @Test
    void createsOnceReplaysAndRefusesAChangedPayload() {
        Agent agent = new Agent(baseUrl());
        String key = "test:invoice.create:ear-" + UUID.randomUUID() + ":v1";

        Agent.Answer first = agent.submit(key, Agent.invoice("order-ear-1", 125000));
        Agent.Answer again = agent.submit(key, Agent.invoice("order-ear-1", 125000));
        Agent.Answer changed = agent.submit(key, Agent.invoice("order-ear-1", 125001));

        assertEquals(201, first.status(), first.body());
        assertEquals(200, again.status());
        assertEquals(first.body(), again.body());
        assertEquals(422, changed.status());
        assertEquals(List.of(first.json().getString("target_object_id")), oneC.effects("1c", Agent.downstream(key)));
    }

    /**
     * The server's own OpenTelemetry exports the call's trace: its server span continues the agent's
     * {@code traceparent}, and the gateway's steps under it carry the operation's key.
     */
    @Test
    void exportsACallsTraceThroughTheServersOpenTelemetry() {
        String key = "test:invoice.create:ear-trace-" + UUID.randomUUID() + ":v1";
        String traceId = UUID.randomUUID().toString().replace("-", "");
        Agent agent = new Agent(baseUrl());
        Agent.Answer created = agent.send(agent.operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
                .POST(HttpRequest.BodyPublishers.ofString(Agent.invoice("order-ear-trace", 3100))));
        assertEquals(201, created.status(), created.body());

        TRACES.awaitSpans(spans -> spans.stream().filter(s -> s.traceId().equals(traceId)).map(ReceivedSpan::name)
                .collect(java.util.stream.Collectors.toSet()).containsAll(Set.of("execute_tool invoice.create", "toolgate.capture",
                        "toolgate.attempt", "POST", "toolgate.record")) && spans.stream().anyMatch(s -> s.traceId().equals(traceId)
                        && s.kind().equals("SERVER")), Duration.ofSeconds(60));
        List<ReceivedSpan> trace = TRACES.awaitQuiet(Duration.ofSeconds(1), Duration.ofSeconds(60)).stream()
                .filter(s -> s.traceId().equals(traceId)).toList(); // everything of this trace, a late duplicate too
        ReceivedSpan server = trace.stream().filter(s -> s.kind().equals("SERVER")).findFirst().orElseThrow();
        assertEquals(1, trace.stream().filter(s -> s.kind().equals("SERVER")).count(), "one server span, the server's or ours: " + trace);
        assertEquals("00f067aa0ba902b7", server.parentSpanId(), "the server continues the agent's span");
        for (ReceivedSpan span : trace) {
            assertEquals(key, span.attribute("toolgate.operation_key"), span.toString());
        }
        assertEquals("201", trace.stream().filter(s -> s.kind().equals("CLIENT")).findFirst().orElseThrow().attribute("http.response.status_code"));
        assertEquals(traceId, created.json().getString("trace_id"), "the journal names the trace the spans are in");
        // the server's SDK took our exporter wrapper (META-INF/services): what it delivered is counted
        Agent operator = new Agent(baseUrl(), "operator");
        TRACES.awaitSpans(spans -> exportedSpans(operator) > 0, Duration.ofSeconds(30));
    }

    private long exportedSpans(Agent operator) {
        String metrics = operator.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/metrics"))).body();
        return metrics.lines().filter(l -> l.startsWith("toolgate_trace_spans_exported_total "))
                .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(' ') + 1))).findFirst().orElse(0);
    }

    private static OtlpReceiver receiver() {
        try {
            return OtlpReceiver.start();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The MCP front door in the EAR on this server: the official TypeScript SDK client, one effect per key. */
    @Test
    void servesMcpToolsWithOneEffectPerKey() {
        String key = "test:invoice.create:ear-mcp-" + UUID.randomUUID() + ":v1";
        JsonObject invoice = Json.createObjectBuilder().add("idempotency_key", key).add("order_id", "order-ear-mcp")
                .add("amount_minor", 4200).add("currency", "RUB").build();
        JsonObject changed = Json.createObjectBuilder(invoice).add("amount_minor", 4201).build();

        JsonObject run = new McpSdk(baseUrl(), "agent-a").list().call("invoice_create", invoice).call("invoice_create", invoice)
                .call("invoice_create", changed).run();

        assertEquals("2025-11-25", run.getString("protocolVersion"));
        JsonArray steps = run.getJsonArray("steps");
        assertEquals(14, steps.getJsonObject(0).getJsonArray("tools").size(), steps.toString()); // 7 operations, 5 evidence tools, 2 processes
        JsonObject first = steps.getJsonObject(1).getJsonObject("structuredContent");
        assertEquals("succeeded", first.getString("outcome"), steps.toString());
        assertTrue(steps.getJsonObject(2).getJsonObject("structuredContent").getBoolean("replayed"));
        assertTrue(steps.getJsonObject(3).getBoolean("isError"));
        assertEquals(List.of(first.getString("target_object_id")), oneC.effects("1c", Agent.downstream(key)));
    }

    /** MCP 2026-07-28 in the EAR on this server: the v2 client probes with server/discover and takes the modern era. */
    @Test
    void servesMcp2026ToTheV2ClientWithOneEffectPerKey() {
        String key = "test:invoice.create:ear-mcp-2026-" + UUID.randomUUID() + ":v1";
        JsonObject invoice = Json.createObjectBuilder().add("idempotency_key", key).add("order_id", "order-ear-mcp-2026")
                .add("amount_minor", 4300).add("currency", "RUB").build();

        JsonObject run = new McpSdk(baseUrl(), "agent-a").v2().list().call("invoice_create", invoice).call("invoice_create", invoice).run();

        assertEquals("modern", run.getString("era"), run.toString());
        assertEquals("2026-07-28", run.getString("protocolVersion"));
        JsonArray steps = run.getJsonArray("steps");
        JsonObject first = steps.getJsonObject(1).getJsonObject("structuredContent");
        assertEquals("succeeded", first.getString("outcome"), steps.toString());
        assertTrue(steps.getJsonObject(2).getJsonObject("structuredContent").getBoolean("replayed"));
        assertEquals(List.of(first.getString("target_object_id")), oneC.effects("1c", Agent.downstream(key)));
    }

    /** The MCP endpoint's HTTP edge on this server: 401 pointing at its metadata, which is served; no stream. */
    @Test
    void answersMcpsHttpEdgeOnThisServer() {
        HttpResponse<String> anonymous = McpHttp.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/mcp"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")));
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertEquals("Bearer resource_metadata=\"" + baseUrl() + "/.well-known/oauth-protected-resource/mcp\"",
                anonymous.headers().firstValue("WWW-Authenticate").orElse(""));
        HttpResponse<String> metadata = McpHttp.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/.well-known/oauth-protected-resource/mcp")));
        assertEquals(200, metadata.statusCode(), metadata.body());
        assertEquals(baseUrl() + "/mcp", McpHttp.json(metadata).getString("resource"));
        HttpResponse<String> stream = McpHttp.send(new McpHttp(baseUrl(), "agent-a").request("/mcp").GET());
        assertEquals(405, stream.statusCode());
    }

    @Test
    void answersProbesMetricsAndTheApiDescriptionOnThisServer() {
        Agent operator = new Agent(baseUrl(), "operator");
        Agent.Answer ready = operator.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/health/ready")));
        assertEquals(200, ready.status(), ready.body());
        Agent.Answer described = operator.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/openapi.yaml")));
        assertEquals(200, described.status());
        Agent.Answer front = operator.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/")));
        assertEquals(200, front.status(), front.body());
        assertTrue(front.body().contains("href=\"/api/openapi.yaml\"") && front.body().contains("href=\"/console/\""), front.body());
        Agent.Answer metrics = operator.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/metrics")));
        assertEquals(200, metrics.status(), metrics.body());
        assertTrue(metrics.body().contains("toolgate_reconcile_lag_seconds "), metrics.body());
    }

    @Test
    void theReconcileJobSettlesADroppedResponse() throws Exception {
        Agent agent = new Agent(baseUrl());
        String key = "test:invoice.create:ear-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals(202, agent.submit(key, Agent.invoice("order-ear-2", 5000)).status());

        Agent operator = new Agent(baseUrl(), "operator");
        Agent.Answer started = operator.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/reconciliations"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(202, started.status(), started.body());
        JsonObject run = operator.awaitRun(started.header("Location"));

        assertEquals(1, run.getJsonObject("counts").getInt("found"), run.toString());
        JsonObject operation = agent.find(key).json();
        assertEquals("succeeded", operation.getString("status"));
        assertEquals(List.of(operation.getString("target_object_id")), oneC.effects("1c", Agent.downstream(key)));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)));
    }

    @Test
    void theJournalRunsOnTheServersPoolAtTheSizeTheEnvironmentSets() throws Exception {
        Agent agent = new Agent(baseUrl());
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            calls.add(agent.submitAsync("test:invoice.create:ear-pool-" + UUID.randomUUID() + ":v1", Agent.invoice("order-pool-" + i, 1000 + i)));
        }
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            HttpResponse<String> answer = call.get(90, TimeUnit.SECONDS);
            assertEquals(201, answer.statusCode(), answer.body());
        }

        Map<String, Integer> sessions = sessionsByApplication(journalUrl);
        int pooled = sessions.getOrDefault(journalPool(), 0);
        assertTrue(pooled >= 1 && pooled <= journalPoolSize(), "sessions by application: " + sessions);
        String other = journalPool().equals("toolgate-pool") ? "toolgate" : "toolgate-pool";
        assertEquals(0, sessions.getOrDefault(other, 0), "the other datasource stays unconnected: " + sessions);
    }

    /** The ApplicationName of the journal's pool: the server's ({@code deploy/} files), unless a suite says otherwise. */
    String journalPool() {
        return "toolgate-pool";
    }

    /** The most sessions that pool may hold: the size the environment gives the server's pool. */
    int journalPoolSize() {
        return POOL_SIZE;
    }

    @Test
    void logsEveryStepOfAnOperationAsJsonWithItsKeyAndTraceId() throws Exception {
        Agent agent = new Agent(baseUrl());
        String key = "test:invoice.create:ear-log-" + UUID.randomUUID() + ":v1";
        String traceId = UUID.randomUUID().toString().replace("-", "");
        Agent.Answer created = agent.send(agent.operations().header("Idempotency-Key", key)
                .header("Content-Type", "application/json").header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
                .POST(HttpRequest.BodyPublishers.ofString(Agent.invoice("order-log-1", 777))));
        assertEquals(201, created.status(), created.body());

        Map<String, JsonObject> steps = new TreeMap<>();
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20)); // file handlers may write behind
        while (steps.size() < 2 && Instant.now().isBefore(deadline)) {
            for (String line : Files.readAllLines(server.serverLog(), StandardCharsets.ISO_8859_1)) {
                if (line.startsWith("{") && line.contains(key)) {
                    JsonObject fields = gatewayFields(Json.createReader(new StringReader(line)).readObject());
                    steps.put(fields.getString("event"), fields);
                }
            }
            Thread.sleep(250);
        }
        assertEquals(Set.of("captured", "outcome"), steps.keySet(), "JSON log lines of " + key + ": " + steps);
        for (JsonObject step : steps.values()) {
            assertEquals(key, step.getString("operation_key"));
            assertEquals(traceId, step.getString("trace_id"));
            assertEquals("1c", step.getString("target"));
        }
        assertEquals("succeeded", steps.get("outcome").getString("status"));
    }

    /**
     * Set up as docs/operations.md says (Payara's JSON log with the JSON-P provider named: json-logs.asadmin, which Payara
     * Server applies to its running JVM too, or {@code GatewayProcess}'s option on Micro), the gateway finds nothing to
     * warn of at start ({@code platform.JsonLogProvider}); WildFly's JSON formatter is its own.
     */
    @Test
    void startsWithoutTheWarningThatItsJsonLogLooksAProviderUpOnEveryLine() throws Exception {
        String log = Files.readString(server.serverLog(), StandardCharsets.ISO_8859_1);
        assertFalse(log.contains("which looks a JSON provider up on every line"), "the start's warning in " + server.serverLog());
    }

    /**
     * The journal's PostgreSQL stopped while nobody calls (a fast shutdown: every session of the server's pool and
     * of the caller cache's listener ends with it) and started again on the same data directory and port: the
     * server's pool finds its dead connections by itself, as the {@code deploy/} files configure it, so readiness is
     * UP within 5 s of PostgreSQL accepting connections, an agent is served, and the listener is back on the
     * journal. Last, as it takes the journal away.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void comesBackByItselfWhenTheJournalsPostgresRestarts() throws Exception {
        Agent agent = new Agent(baseUrl());
        assertEquals(201, agent.submit("test:invoice.create:ear-restart-" + UUID.randomUUID() + ":v1",
                Agent.invoice("order-ear-restart-1", 900)).status(), "the journal answers before the restart");
        Await.await(() -> journal.listeners() > 0, "the caller cache's listener on the journal", Duration.ofSeconds(30));

        long accepting = journal.restartAfter(Duration.ofSeconds(2));
        Readiness.Recovery recovery = Readiness.upAfter(baseUrl(), accepting, Duration.ofSeconds(60));
        System.out.printf("%s after a PostgreSQL restart: readiness %s after %d ms, slowest probe %d ms%n",
                serverName(), recovery.statuses(), recovery.readyAfterMillis(), recovery.slowestProbeMillis());

        recovery.assertUpInTime();
        Agent.Answer served = agent.submit("test:invoice.create:ear-restart-" + UUID.randomUUID() + ":v1",
                Agent.invoice("order-ear-restart-2", 900));
        assertEquals(201, served.status(), served.body());
        Await.await(() -> journal.listeners() > 0, "the caller cache's listener back on the journal", Duration.ofSeconds(45));
    }

    /** The open sessions on the journal database at {@code jdbcUrl}, other than this one, counted by application name. */
    static Map<String, Integer> sessionsByApplication(String jdbcUrl) throws Exception {
        Map<String, Integer> sessions = new TreeMap<>();
        try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "postgres");
             ResultSet rows = connection.createStatement().executeQuery("SELECT application_name, count(*) FROM pg_stat_activity"
                     + " WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY application_name")) {
            while (rows.next()) {
                sessions.put(rows.getString(1), rows.getInt(2));
            }
        }
        return sessions;
    }
}
