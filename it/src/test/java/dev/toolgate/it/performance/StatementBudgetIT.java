package dev.toolgate.it.performance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Await;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.OneCDirect;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The statements and commits the journal sees per operation, counted by {@code pg_stat_statements} on a
 * PostgreSQL of its own while nothing else runs (no scheduled reconcile job, no purge; the reconcile budget
 * starts one run itself): a budget the hot path may not exceed. A count, unlike a timing, is the same on every run.
 */
@Lane(3)
class StatementBudgetIT {

    /**
     * Per new operation: the first look, which reads the key's row and, there being none, captures it with its event
     * ({@code lifecycle.FirstCapture}, one autocommitted statement); the outcome (its fenced update and event in one
     * statement that returns the row the answer is built from). The token is checked from the instance's cache of
     * callers. Before the first look, the read and the capture were two statements (3).
     */
    static final double NEW_STATEMENTS = 2;
    /**
     * Transactions opened by BEGIN: the outcome's. The capture is the other durable commit the guarantee rests on,
     * committed before the call as the autocommitted first look (no BEGIN; before it, a transaction of its own: 2).
     */
    static final double NEW_COMMITS = 1;
    /**
     * Per replay: the first look, reading the finished row; its capture inserts nothing (FirstCaptureIT: not even a
     * transaction id is taken), the token checked from the cache.
     */
    static final double REPLAY_STATEMENTS = 1;
    static final double REPLAY_COMMITS = 0;
    /**
     * Per item of a reconcile run over a backlog of unknown operations, half found at the target and half absent
     * (sent again): the claim (two statements for the whole batch: the due rows locked, then all leased with their
     * events); a found one's fenced write with its event and nothing else; an absent one's locked read, its fenced
     * write and the new attempt's outcome — 2.2 measured (2.8 when a found one was read under its lock first). (A
     * lapsed attempt's row waits out its settle window, so it is not in this run.)
     */
    static final double RECONCILE_STATEMENTS = 2.4;
    /**
     * The look-up's record, and the new attempt's outcome for half of them (1.5); the claims' commits, shared by
     * their batches (three for 40); 1.6 measured. The rest is room for a lease renewal on a slow machine.
     */
    static final double RECONCILE_COMMITS = 1.7;
    private static final int BACKLOG = 40;
    private static final int OPERATIONS = 20;
    private static final String DATABASE = "budget";

    private static EmbeddedPostgres postgres;
    private static GatewayProcess gateway;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().setServerConfig("shared_preload_libraries", "pg_stat_statements")
                .setServerConfig("pg_stat_statements.track_utility", "on").start();
        String jdbcUrl = LocalStack.database(postgres, DATABASE);
        try (Connection c = postgres.getDatabase("postgres", DATABASE).getConnection()) {
            c.createStatement().execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
        Map<String, String> config = TestStack.configFor(jdbcUrl);
        config.put("toolgate.reconcile.interval-seconds", "0");
        config.put("toolgate.retention.purge-interval-seconds", "0");
        gateway = TestStack.readyGateway(config, "budget-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.stop(gateway);
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void aNewOperationStaysWithinItsStatementBudget() throws Exception {
        Agent agent = new Agent(gateway.baseUrl());
        warmUp(agent);
        Count count = counted(() -> {
            for (int i = 0; i < OPERATIONS; i++) {
                String key = "test:invoice.create:budget-" + UUID.randomUUID() + ":v1";
                assertEquals(201, agent.submit(key, Agent.invoice("order-budget", 5000)).status());
            }
        });
        System.out.printf("statement budget: new operation %.1f statements, %.1f commits (budget %.0f, %.0f); %s%n",
                count.statements() / OPERATIONS, count.commits() / OPERATIONS, NEW_STATEMENTS, NEW_COMMITS, count.byStatement());
        assertTrue(count.statements() / OPERATIONS <= NEW_STATEMENTS, count.byStatement().toString());
        assertTrue(count.commits() / OPERATIONS <= NEW_COMMITS, count.byStatement().toString());
    }

    @Test
    void aReplayReadsOnceAndWritesNothing() throws Exception {
        Agent agent = new Agent(gateway.baseUrl());
        warmUp(agent);
        String key = "test:invoice.create:budget-replay-" + UUID.randomUUID() + ":v1";
        assertEquals(201, agent.submit(key, Agent.invoice("order-budget", 5000)).status());
        Count count = counted(() -> {
            for (int i = 0; i < OPERATIONS; i++) {
                assertEquals(200, agent.submit(key, Agent.invoice("order-budget", 5000)).status());
            }
        });
        System.out.printf("statement budget: replay %.1f statements, %.1f commits (budget %.0f, %.0f); %s%n",
                count.statements() / OPERATIONS, count.commits() / OPERATIONS, REPLAY_STATEMENTS, REPLAY_COMMITS, count.byStatement());
        assertTrue(count.statements() / OPERATIONS <= REPLAY_STATEMENTS, count.byStatement().toString());
        assertTrue(count.commits() / OPERATIONS <= REPLAY_COMMITS, count.byStatement().toString());
    }

    @Test
    void aReconcileItemStaysWithinItsStatementBudget() throws Exception {
        List<String> first = backlog(4);
        reconcileOnce(); // prepares the job's statements
        assertSucceeded(first);
        List<String> keys = backlog(BACKLOG);
        Count count = counted(StatementBudgetIT::reconcileOnce);
        assertSucceeded(keys); // every one found, or sent again
        System.out.printf("statement budget: reconcile item %.1f statements, %.1f commits (budget %.1f, %.1f); %s%n",
                count.statements() / BACKLOG, count.commits() / BACKLOG, RECONCILE_STATEMENTS, RECONCILE_COMMITS, count.byStatement());
        assertTrue(count.statements() / BACKLOG <= RECONCILE_STATEMENTS, count.byStatement().toString());
        assertTrue(count.commits() / BACKLOG <= RECONCILE_COMMITS, count.byStatement().toString());
    }

    /** Unknown operations whose lost responses are behind us, due now; the even ones did create their document. */
    private static List<String> backlog(int size) throws SQLException {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        List<String> keys = new ArrayList<>();
        Timestamp past = Timestamp.from(Instant.now().minusSeconds(60));
        try (Connection c = postgres.getDatabase("postgres", DATABASE).getConnection(); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload, status,"
                        + " target_system, attempt_count, next_check_at, settle_after, error_code, created_at, updated_at)"
                        + " VALUES ('acme', ?, 'invoice.create', ?, CAST(? AS jsonb), 'unknown', '1c', 1, ?, ?, 'connection_lost', ?, ?)")) {
            for (int i = 0; i < size; i++) {
                String key = "test:invoice.create:budget-backlog-" + batch + "-" + i + ":v1";
                keys.add(key);
                insert.setString(1, key);
                insert.setString(2, "b".repeat(64));
                insert.setString(3, "{\"order_id\":\"order-backlog\",\"amount_minor\":100,\"currency\":\"RUB\"}");
                for (int p = 4; p <= 7; p++) {
                    insert.setTimestamp(p, past);
                }
                insert.addBatch();
            }
            insert.executeBatch();
        }
        for (int i = 0; i < keys.size(); i += 2) {
            OneCDirect.createDocument(Agent.downstream(keys.get(i)));
        }
        return keys;
    }

    /**
     * One run of the job, watched through the API (so that only the gateway's statements are counted), until
     * it completed.
     */
    private static void reconcileOnce() throws Exception {
        Agent operator = new Agent(gateway.baseUrl(), "operator");
        Agent.Answer run = operator.send(HttpRequest.newBuilder(
                URI.create(gateway.baseUrl() + "/api/v1/reconciliations")).POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(202, run.status(), run.body());
        Await.await(() -> "COMPLETED".equals(operator.send(HttpRequest.newBuilder(URI.create(run.header("Location"))))
                .json().getString("status")), "the run to complete", Duration.ofSeconds(120));
    }

    private static void assertSucceeded(List<String> keys) throws SQLException {
        try (Connection c = postgres.getDatabase("postgres", DATABASE).getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT count(*) FROM agent_operation_log WHERE tenant = 'acme' AND operation_key = ANY (?) AND status = 'succeeded'")) {
            q.setArray(1, c.createArrayOf("text", keys.toArray()));
            try (ResultSet r = q.executeQuery()) {
                r.next();
                assertEquals(keys.size(), r.getInt(1), "every operation of the backlog succeeded in the run");
            }
        }
    }

    /** The first calls prepare statements and fill caches: not what a steady hot path costs. */
    private static void warmUp(Agent agent) {
        for (int i = 0; i < 5; i++) {
            String key = "test:invoice.create:warm-" + UUID.randomUUID() + ":v1";
            agent.submit(key, Agent.invoice("order-warm", 5000));
            agent.submit(key, Agent.invoice("order-warm", 5000));
        }
    }

    private static Count counted(Workload workload) throws Exception {
        try (Connection c = postgres.getDatabase("postgres", DATABASE).getConnection()) {
            c.createStatement().execute("SELECT pg_stat_statements_reset()");
        }
        workload.run();
        Map<String, Long> calls = new TreeMap<>();
        try (Connection c = postgres.getDatabase("postgres", DATABASE).getConnection();
             ResultSet rows = c.createStatement().executeQuery("SELECT query, calls FROM pg_stat_statements s"
                     + " JOIN pg_database d ON d.oid = s.dbid JOIN pg_roles r ON r.oid = s.userid"
                     + " WHERE d.datname = '" + DATABASE + "' AND s.query NOT LIKE '%pg_stat_statements%'")) {
            while (rows.next()) {
                calls.merge(rows.getString(1).replaceAll("\\s+", " "), rows.getLong(2), Long::sum);
            }
        }
        return new Count(calls);
    }

    private interface Workload {
        void run() throws Exception;
    }

    /**
     * Calls per statement text. Transactions are counted by their BEGIN (the driver opens each one so;
     * its COMMIT travels as a protocol message pg_stat_statements does not list); transaction control is
     * no statement.
     */
    private record Count(Map<String, Long> byStatement) {
        double commits() {
            return byStatement.entrySet().stream().filter(e -> e.getKey().trim().equalsIgnoreCase("BEGIN"))
                    .mapToLong(Map.Entry::getValue).sum();
        }

        double statements() {
            return byStatement.entrySet().stream().filter(e -> !isTransactionControl(e.getKey()) && !isListener(e.getKey()))
                    .mapToLong(Map.Entry::getValue).sum();
        }

        /**
         * The principal-change listener's own traffic: its LISTEN and the announcement it sends itself every
         * few seconds to prove the channel works. Per instance and per interval, not per operation.
         */
        private static boolean isListener(String query) {
            String q = query.trim().toUpperCase();
            return q.startsWith("LISTEN ") || q.startsWith("UNLISTEN ") || q.startsWith("SELECT PG_NOTIFY(");
        }

        private static boolean isTransactionControl(String query) {
            String q = query.trim().toUpperCase();
            return q.equals("COMMIT") || q.equals("BEGIN") || q.equals("ROLLBACK") || q.startsWith("SET ") || q.startsWith("SHOW ");
        }
    }
}
