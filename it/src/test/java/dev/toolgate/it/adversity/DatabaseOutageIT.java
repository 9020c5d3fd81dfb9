package dev.toolgate.it.adversity;

import static dev.toolgate.it.support.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.checker.History;
import dev.toolgate.checker.Verdict;
import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.JournalRows;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.RunHistory;
import dev.toolgate.it.support.TcpProxy;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The journal's PostgreSQL going away under a running gateway (a Payara Micro process that reaches it
 * through a {@link TcpProxy}): refused, black-holed, cut between the target call and the record. The
 * gateway answers like an outage (503 {@code journal-unavailable} + Retry-After), readiness says DOWN,
 * liveness UP, and once the database is back it serves again without a restart. Timings are printed,
 * not asserted tightly: the bounds are the documented timeouts plus a wide margin (docs/database-outage.md).
 */
@Lane(2)
class DatabaseOutageIT {

    private static final String DATABASE = "outage";
    /** connect timeout 2 s: a refused or silent new connection fails within it; 3 s margin for a busy box. */
    private static final Duration REFUSED_BOUND = Duration.ofSeconds(5);
    /** socket timeout 5 s (a pooled connection gone silent) + connect timeout 2 s + 3 s margin. */
    private static final Duration BLACK_HOLE_BOUND = Duration.ofSeconds(10);

    /**
     * How long after the database is back an agent may still be told 503: the pool finds each connection the outage
     * killed on its first use (black-hole bound, 10 s) and replaces it, with 5 s margin for a busy machine.
     */
    private static final Duration BACK_BOUND = Duration.ofSeconds(15);

    private static TcpProxy proxy;
    private static GatewayProcess gateway;
    private final SimulatorClient oneC = TestStack.targets();
    /** Each test's one key, judged at its end by the checker every fault suite uses. */
    private final RunHistory run = new RunHistory(oneC);
    private Instant away;

    @BeforeAll
    static void start() throws Exception {
        String direct = TestStack.newDatabase(DATABASE);
        int postgresPort = URI.create(direct.substring("jdbc:".length())).getPort();
        proxy = TcpProxy.to("127.0.0.1", postgresPort);
        Map<String, String> config = settlingQuickly(TestStack.configFor("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + DATABASE));
        gateway = TestStack.startGateway(config, "outage-gateway").awaitReady();
    }

    /**
     * A lease of 5 s (longer than the slowest simulated call here), a settle window of 2 s and the reconcile
     * job every second: what an outage left unrecorded is settled within seconds of the database's return.
     */
    static Map<String, String> settlingQuickly(Map<String, String> config) {
        config.put("toolgate.lease-seconds", "5");
        config.put("toolgate.reconcile.settle-seconds", "2");
        config.put("toolgate.reconcile.interval-seconds", "1");
        return config;
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
        if (proxy != null) {
            proxy.close();
        }
    }

    @AfterEach
    void reconnect() throws Exception {
        proxy.restore();
    }

    @Test
    void answersJournalUnavailableWhileTheDatabaseRefusesConnections() throws Exception {
        Agent agent = new Agent(gateway.baseUrl()); // its token is issued while the journal answers
        String key = "test:invoice.create:refused-" + UUID.randomUUID() + ":v1";
        run.plan(key, "1c", false);
        goAway();
        proxy.refuse();
        proxy.cut(); // a stopped PostgreSQL: nothing listens, and the pooled connections are gone

        assertOutage("refused", REFUSED_BOUND, () -> run.call(key, () -> agent.submit(key, Agent.invoice("order-refused", 700))));
        assertOutage("refused", REFUSED_BOUND, () -> agent.find(key));
        assertOutage("refused", REFUSED_BOUND, () -> new Agent(gateway.baseUrl(), "agent-a").sendAnonymously(
                agent.operations().header("Authorization", "Bearer tg_not-a-live-token")));
        assertProbesSayOutage();
        assertEquals(0, rows(key), "a capture that could not commit leaves no row");

        restore();
        assertServesAgain(agent, key);
        judge();
    }

    @Test
    void answersJournalUnavailableWhileTheConnectionIsBlackHoled() throws Exception {
        Agent agent = new Agent(gateway.baseUrl());
        String key = "test:invoice.create:black-hole-" + UUID.randomUUID() + ":v1";
        run.plan(key, "1c", false);
        goAway();
        proxy.blackHole(); // packets dropped, no RST: only the driver's timeouts end the wait

        for (int call = 0; call < 3; call++) {
            assertOutage("black-holed", BLACK_HOLE_BOUND, () -> run.call(key, () -> agent.submit(key, Agent.invoice("order-black-hole", 700))));
        }
        assertProbesSayOutage();

        restore();
        assertServesAgain(agent, key);
        judge();
    }

    @Test
    void anOutcomeThatCouldNotBeRecordedIsLookedUpByKeyNotSentAgain() throws Exception {
        Agent agent = new Agent(gateway.baseUrl());
        String key = "test:invoice.create:unrecorded-" + UUID.randomUUID() + ":v1";
        run.plan(key, "1c", false);
        // 1C takes 2 s, then commits: the journal goes away meanwhile
        run.arm(key, "delay", 1, match -> oneC.armDelay("1c", match, 2_000));
        CompletableFuture<HttpResponse<String>> call = agent.submitAsync(key, Agent.invoice("order-unrecorded", 700));
        await(() -> oneC.creates("1c", Agent.downstream(key)) == 1, "the request to reach 1C");
        goAway();
        proxy.refuse();
        proxy.cut();

        Agent.Answer answer = run.call(key, () -> new Agent.Answer(call.orTimeout(30, TimeUnit.SECONDS).join()));
        assertEquals(503, answer.status(), answer.body());
        assertEquals("journal-unavailable", answer.problem(), answer.body());
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size(), "1C committed the document");
        assertEquals("started", status(key), "the capture stands, leased; the outcome was not recorded");

        restore();
        assertServesAgain(agent, key, true);
        assertEquals("succeeded", status(key));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "found by key, never sent twice");
        judge();
    }

    private void goAway() {
        away = Instant.now();
    }

    /** The database back: an agent may be told 503 from {@link #goAway} until {@link #BACK_BOUND} after this. */
    private void restore() throws Exception {
        proxy.restore();
        run.outage(History.Away.JOURNAL, away, Instant.now().plus(BACK_BOUND));
    }

    /** The checker's verdict on this test's key: every answer, the row, what 1C received and holds. */
    private void judge() throws Exception {
        Verdict verdict = run.judge(() -> TestStack.connect(DATABASE));
        System.out.println(verdict.report());
        assertTrue(verdict.clean(), verdict.report());
    }

    /** Status 503, problem journal-unavailable, Retry-After, within {@code bound}; the time is printed. */
    private static void assertOutage(String how, Duration bound, Call call) {
        long started = System.nanoTime();
        Agent.Answer answer = call.send();
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        System.out.printf("journal %s: %d %s in %d ms%n", how, answer.status(), answer.header("Content-Type"), took.toMillis());
        assertEquals(503, answer.status(), answer.body());
        assertEquals("journal-unavailable", answer.problem(), answer.body());
        assertTrue(answer.header("Content-Type").startsWith("application/problem+json"), answer.header("Content-Type"));
        assertNotNull(answer.header("Retry-After"), "Retry-After");
        assertTrue(took.compareTo(bound) < 0, "answered in " + took.toMillis() + " ms, bound " + bound);
    }

    private static void assertProbesSayOutage() {
        assertEquals(503, probe("ready"), "readiness DOWN while the journal is away");
        assertEquals(200, probe("live"), "liveness UP: restarting the gateway would not bring the database back");
    }

    /** Retries with the same key, as an agent does, until the answer is final: only 503 and 409 before it. */
    private void assertServesAgain(Agent agent, String key) throws Exception {
        assertServesAgain(agent, key, false);
    }

    /**
     * The same, where the call reached the target before the journal went away ({@code reachedTheTarget}): then, once the
     * capture's lease has expired, also 202 outcome-unknown before the final answer — the call may have been executed,
     * so it is looked up by key, never sent again (a full run met it once the suites ran faster).
     */
    private void assertServesAgain(Agent agent, String key, boolean reachedTheTarget) throws Exception {
        long started = System.nanoTime();
        int[] last = new int[1];
        await(() -> {
            Agent.Answer answer = run.call(key, () -> agent.submit(key, Agent.invoice(orderOf(key), 700)));
            assertNotNull(answer, "an answer after restore");
            last[0] = answer.status();
            boolean lookingUp = reachedTheTarget && answer.status() == 202 && "outcome-unknown".equals(answer.problem());
            assertTrue(answer.status() == 503 || answer.status() == 409 || lookingUp || answer.status() == 200 || answer.status() == 201,
                    "after restore: " + answer.status() + " " + answer.body());
            return answer.status() == 200 || answer.status() == 201;
        }, key + " to be served after the journal came back", Duration.ofSeconds(60));
        System.out.printf("journal back: %s answered %d after %d ms%n", key, last[0], (System.nanoTime() - started) / 1_000_000);
        assertEquals(200, probe("ready"));
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size(), "exactly one document for " + key);
    }

    private static String orderOf(String key) {
        return key.contains("refused") ? "order-refused" : key.contains("black-hole") ? "order-black-hole" : "order-unrecorded";
    }

    private static int probe(String which) {
        Agent.Answer answer = new Agent(gateway.baseUrl(), "agent-a").sendAnonymously(HttpRequest.newBuilder(
                URI.create(gateway.baseUrl() + "/api/health/" + which)).timeout(Duration.ofSeconds(30)));
        return answer.status();
    }

    private static long rows(String key) throws Exception {
        try (Connection c = TestStack.connect(DATABASE);
             PreparedStatement count = c.prepareStatement("SELECT count(*) FROM agent_operation_log WHERE operation_key = ?")) {
            count.setString(1, key);
            try (ResultSet result = count.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    private static String status(String key) throws Exception {
        return JournalRows.status(() -> TestStack.connect(DATABASE), key);
    }

    @FunctionalInterface
    private interface Call {
        Agent.Answer send();
    }
}
