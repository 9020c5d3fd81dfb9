package dev.toolgate.it.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The journal's PostgreSQL itself stopped and started again (same port, same data directory) while
 * agents are sending operations to a running gateway: a PostgreSQL of its own, so the rest of the
 * suite never sees it go away. Every accepted operation ends settled, none twice at the target, and
 * no answer is a 500 — inside the outage the answer is 503.
 */
class PostgresRestartIT {

    private static final int AGENTS = 4;
    private static final int OPERATIONS_PER_AGENT = 12;

    private static Path dataDirectory;
    private static int postgresPort;
    private static EmbeddedPostgres postgres;
    private static GatewayProcess gateway;
    private final SimulatorClient oneC = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        dataDirectory = Files.createTempDirectory("toolgate-restart-pg").resolve("data");
        postgresPort = LocalStack.freePort();
        postgres = LocalStack.postgres(dataDirectory, postgresPort);
        Map<String, String> config = DatabaseOutageIT.settlingQuickly(TestStack.configFor(LocalStack.database(postgres, "restart")));
        gateway = TestStack.startGateway(config, "restart-gateway").awaitReady();
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        if (postgres != null) {
            postgres.close();
        }
        LocalStack.deleteRecursively(dataDirectory.getParent());
    }

    @Test
    void aPostgresRestartUnderLoadLosesAndDuplicatesNothing() throws Exception {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < AGENTS * OPERATIONS_PER_AGENT; i++) {
            keys.add("test:invoice.create:pg-restart-" + batch + "-" + i + ":v1");
            if (i % 4 == 0) {
                oneC.armDelay("1c", Agent.downstream(keys.get(i)), 700); // some are at 1C when the database stops
            }
        }
        ConcurrentMap<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        ExecutorService agents = Executors.newFixedThreadPool(AGENTS);
        List<Future<?>> work = new ArrayList<>();
        for (int a = 0; a < AGENTS; a++) {
            List<String> mine = keys.subList(a * OPERATIONS_PER_AGENT, (a + 1) * OPERATIONS_PER_AGENT);
            Agent agent = new Agent(gateway.baseUrl());
            work.add(agents.submit(() -> {
                for (String key : mine) {
                    untilSettled(agent, key, statuses);
                }
                return null;
            }));
        }
        Thread.sleep(1_500);
        long stopped = System.nanoTime();
        postgres.close(); // pg_ctl stop -m fast: sessions terminated, the port closed
        Thread.sleep(4_000);
        postgres = LocalStack.postgres(dataDirectory, postgresPort);
        System.out.printf("postgres restarted after %d ms%n", (System.nanoTime() - stopped) / 1_000_000);
        for (Future<?> agent : work) {
            agent.get(180, TimeUnit.SECONDS);
        }
        agents.shutdown();
        System.out.println("answers during the run by status: " + statuses);

        assertTrue(!statuses.containsKey(500), "no 500 at any point: " + statuses);
        assertTrue(!statuses.containsKey(-1), "the gateway answered every call: " + statuses);
        assertTrue(statuses.containsKey(503), "the restart was seen as an outage: " + statuses);
        for (String key : keys) {
            assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size(), "one document for " + key);
        }
        assertEquals(keys.size(), succeeded(batch), "every operation recorded as succeeded");
    }

    /** An agent retries with the same key until it has a final answer, counting every answer's status. */
    private static void untilSettled(Agent agent, String key, ConcurrentMap<Integer, AtomicInteger> statuses)
            throws InterruptedException {
        while (true) {
            int status;
            try {
                Agent.Answer answer = agent.submit(key, Agent.invoice("order-" + key, 900));
                status = answer.status();
                if (status == 503) {
                    assertTrue(answer.header("Retry-After") != null, "503 without Retry-After: " + answer.body());
                }
            } catch (UncheckedIOException refused) {
                status = -1; // the gateway itself never stops here: count it, it must not happen
            }
            statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
            if (status == 200 || status == 201) {
                return;
            }
            Thread.sleep(500);
        }
    }

    private static long succeeded(String batch) throws Exception {
        try (Connection c = postgres.getDatabase("postgres", "restart").getConnection();
             ResultSet count = c.createStatement().executeQuery("SELECT count(*) FROM agent_operation_log"
                     + " WHERE status = 'succeeded' AND operation_key LIKE 'test:invoice.create:pg-restart-" + batch + "-%'")) {
            count.next();
            return count.getLong(1);
        }
    }
}
