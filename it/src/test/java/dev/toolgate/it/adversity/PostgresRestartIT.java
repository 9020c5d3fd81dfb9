package dev.toolgate.it.adversity;

import static dev.toolgate.it.support.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.checker.History;
import dev.toolgate.checker.Verdict;
import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.JournalRows;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.Readiness;
import dev.toolgate.it.support.RestartablePostgres;
import dev.toolgate.it.support.RunHistory;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The journal's PostgreSQL itself stopped (fast shutdown: its sessions end with FATAL 57P01) and started
 * again on the same port and data directory under a running gateway: a PostgreSQL of its own, so the rest of
 * the suite never sees it go away. Once PostgreSQL accepts connections again the gateway is ready within
 * seconds by itself, whether agents kept calling through the restart or nobody did; every accepted
 * operation ends settled, none twice at the target; no answer is a 500, and inside the outage the answer is
 * a prompt 503. The quiet restart first: the one the pool cannot weed out by use.
 */
@Lane(3)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PostgresRestartIT {

    private static final int AGENTS = 4;
    private static final int OPERATIONS_PER_AGENT = 12;
    /**
     * The longest any answer may take while the journal restarts: the connect timeout (2 s), the slowest
     * simulated 1C call here (0.7 s), and 2 s margin for a busy 2-core machine. A call held past it waited on
     * something the timeouts do not bound.
     */
    private static final Duration ANSWER_BOUND = Duration.ofMillis(2_000 + 700 + 2_000);

    private static RestartablePostgres postgres;
    private static GatewayProcess gateway;
    private final SimulatorClient oneC = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        postgres = RestartablePostgres.start("restart");
        Map<String, String> config = DatabaseOutageIT.settlingQuickly(TestStack.configFor(postgres.jdbcUrl()));
        // the reconcile job on its default schedule (every 30 s), as in the README's local run: run every second,
        // its transactions would weed out the dead pooled connections for everybody (a transaction that cannot
        // begin on one has the pool evict it), hiding what the rest of the gateway does with them
        config.remove("toolgate.reconcile.interval-seconds");
        gateway = TestStack.startGateway(config, "restart-gateway").awaitReady();
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
        if (postgres != null) {
            postgres.close();
        }
    }

    /**
     * Nobody calls while PostgreSQL restarts, as on a quiet night: every connection the gateway holds — the pool's
     * and the caller cache's listener — died with it. The gateway must find that out by itself: readiness UP within
     * seconds of PostgreSQL accepting connections, no probe held long, an agent served, the
     * listener back on the journal, and the operation whose outcome the stop kept from the journal settled by the
     * reconcile job with no agent asking, its document still one.
     */
    @Test
    @Order(1)
    void anIdleGatewayIsReadyWithinSecondsOfPostgresAcceptingConnectionsAgain() throws Exception {
        Agent agent = new Agent(gateway.baseUrl());
        assertEquals(201, agent.submit("test:invoice.create:pg-idle-warm-" + UUID.randomUUID() + ":v1",
                Agent.invoice("order-idle-warm", 900)).status(), "the journal answers before the restart");
        await(() -> postgres.listeners() > 0, "the caller cache's listener on the journal", Duration.ofSeconds(30));

        String unrecorded = "test:invoice.create:pg-idle-" + UUID.randomUUID() + ":v1";
        oneC.armDelay("1c", Agent.downstream(unrecorded), 2_000); // 1C commits while the journal is stopped
        CompletableFuture<HttpResponse<String>> call = agent.submitAsync(unrecorded, Agent.invoice("order-idle", 900));
        await(() -> oneC.creates("1c", Agent.downstream(unrecorded)) == 1, "the request to reach 1C");
        postgres.stop();
        HttpResponse<String> lost = call.get(30, TimeUnit.SECONDS);
        assertEquals(503, lost.statusCode(), lost.body()); // the outcome could not be recorded: the journal is away
        // from here on nobody calls until PostgreSQL is back
        long accepting = postgres.startAgainAfter(Duration.ofSeconds(3));

        Readiness.Recovery recovery = Readiness.upAfter(gateway.baseUrl(), accepting, Duration.ofSeconds(60));
        System.out.printf("idle restart: readiness %s after %d ms, slowest probe %d ms%n",
                recovery.statuses(), recovery.readyAfterMillis(), recovery.slowestProbeMillis());
        recovery.assertUpInTime();

        Agent.Answer served = agent.submit("test:invoice.create:pg-idle-after-" + UUID.randomUUID() + ":v1",
                Agent.invoice("order-idle-after", 900));
        assertEquals(201, served.status(), served.body());
        await(() -> postgres.listeners() > 0, "the caller cache's listener back on the journal", Duration.ofSeconds(45));
        await(() -> "succeeded".equals(status(unrecorded)), "the reconcile job to settle " + unrecorded, Duration.ofSeconds(60));
        System.out.printf("idle restart: listener back and %s settled by the job %d ms after postgres accepted%n",
                unrecorded, (System.nanoTime() - accepting) / 1_000_000);
        assertEquals(1, oneC.creates("1c", Agent.downstream(unrecorded)), "found by key, never sent twice");
        assertEquals(1, oneC.effects("1c", Agent.downstream(unrecorded)).size());
    }

    @Test
    @Order(2)
    void aPostgresRestartUnderLoadLosesAndDuplicatesNothing() throws Exception {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        List<String> keys = new ArrayList<>();
        RunHistory run = new RunHistory(oneC);
        for (int i = 0; i < AGENTS * OPERATIONS_PER_AGENT; i++) {
            keys.add("test:invoice.create:pg-restart-" + batch + "-" + i + ":v1");
            run.plan(keys.get(i), "1c", false);
            if (i % 4 == 0) { // some are at 1C when the database stops
                run.arm(keys.get(i), "delay", 1, match -> oneC.armDelay("1c", match, 700));
            }
        }
        ConcurrentMap<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        AtomicLong slowest = new AtomicLong();
        ExecutorService agents = Executors.newFixedThreadPool(AGENTS);
        List<Future<?>> work = new ArrayList<>();
        for (int a = 0; a < AGENTS; a++) {
            List<String> mine = keys.subList(a * OPERATIONS_PER_AGENT, (a + 1) * OPERATIONS_PER_AGENT);
            Agent agent = new Agent(gateway.baseUrl());
            work.add(agents.submit(() -> {
                for (String key : mine) {
                    untilSettled(run, agent, key, statuses, slowest);
                }
                return null;
            }));
        }
        Thread.sleep(1_500);
        Instant stopped = Instant.now();
        long accepting = postgres.restartAfter(Duration.ofSeconds(4));
        Readiness.Recovery recovery = Readiness.upAfter(gateway.baseUrl(), accepting, Duration.ofSeconds(60));
        // a pooled connection PostgreSQL ended is found dead on its first use after readiness too (answered 503 and
        // replaced): the outage ends a few seconds after the probe says UP, not at it
        run.outage(History.Away.JOURNAL, stopped, Instant.now().plusSeconds(5));
        for (Future<?> agent : work) {
            agent.get(180, TimeUnit.SECONDS);
        }
        agents.shutdown();
        System.out.printf("restart under load: readiness %s after %d ms; answers by status %s, slowest %d ms%n",
                recovery.statuses(), recovery.readyAfterMillis(), statuses, slowest.get());

        assertTrue(!statuses.containsKey(500), "no 500 at any point: " + statuses);
        assertTrue(!statuses.containsKey(-1), "the gateway answered every call: " + statuses);
        assertTrue(statuses.containsKey(503), "the restart was seen as an outage: " + statuses);
        recovery.assertUpInTime();
        assertTrue(slowest.get() <= ANSWER_BOUND.toMillis(), "slowest answer " + slowest.get() + " ms, bound " + ANSWER_BOUND);
        for (String key : keys) {
            assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size(), "one document for " + key);
        }
        assertEquals(keys.size(), succeeded(batch), "every operation recorded as succeeded");
        Verdict verdict = run.judge(postgres::connect);
        System.out.println("restart under load: " + verdict.report());
        assertTrue(verdict.clean(), verdict.report());
    }

    /** An agent retries with the same key until it has a final answer, counting every answer's status and time. */
    private static void untilSettled(RunHistory run, Agent agent, String key, ConcurrentMap<Integer, AtomicInteger> statuses,
                                     AtomicLong slowest) throws InterruptedException {
        while (true) {
            long sent = System.nanoTime();
            // the gateway itself never stops here: a call with no answer is counted (-1), and the checker refuses it
            Agent.Answer answer = run.call(key, () -> agent.submit(key, Agent.invoice("order-" + key, 900)));
            int status = answer == null ? -1 : answer.status();
            slowest.accumulateAndGet((System.nanoTime() - sent) / 1_000_000, Math::max);
            statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
            if (status == 200 || status == 201) {
                return;
            }
            Thread.sleep(500);
        }
    }

    private static String status(String key) throws SQLException {
        return JournalRows.status(postgres::connect, key);
    }

    private static long succeeded(String batch) throws Exception {
        try (Connection c = postgres.connect();
             ResultSet count = c.createStatement().executeQuery("SELECT count(*) FROM agent_operation_log"
                     + " WHERE status = 'succeeded' AND operation_key LIKE 'test:invoice.create:pg-restart-" + batch + "-%'")) {
            count.next();
            return count.getLong(1);
        }
    }
}
