package dev.toolgate.it.performance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Await;
import dev.toolgate.it.support.JournalRows;
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
 * The statements and commits the journal sees per operation, on a PostgreSQL of its own while nothing else runs (no
 * scheduled reconcile job, no purge, no autovacuum; the reconcile test starts one run itself): statements as
 * {@code pg_stat_statements} counts them; transactions opened by BEGIN; and commits that wrote, as transaction ids taken
 * ({@code pg_current_snapshot()}'s xmax before and after) — an autocommitted write is one, a BEGIN…COMMIT that wrote is
 * one, a read takes none. The hot path's figures are asserted exactly, so a path that does less than it must (a capture
 * that is not committed before the call) fails as surely as one that does more. A count, unlike a timing, is the same
 * on every run.
 */
@Lane(3)
class StatementBudgetIT {

    /**
     * Per new operation: the first look, which reads the key's row and, there being none, captures it with its event
     * ({@code lifecycle.FirstCapture}, one autocommitted statement); the outcome (its fenced update and event in one
     * statement that returns the row the answer is built from). The token is checked from the instance's cache of
     * callers.
     */
    static final Figures NEW = new Figures(2, 0, 2);
    /**
     * Both are commits the guarantee rests on: the capture, before the call, and the outcome, before the agent hears it;
     * each is one statement, autocommitted (no BEGIN).
     */
    static final String NEW_COMMITS_WHY = "the capture (autocommitted) and the outcome (autocommitted)";
    /**
     * Per replay of an operation this instance finished or has read finished: none — the row is held in memory
     * ({@code lifecycle.FinishedOperations}); the token is checked from the cache of callers.
     */
    static final Figures REPLAY_HELD = new Figures(0, 0, 0);
    /**
     * Replays of a finished row only the journal holds (another instance finished it): the first look once, reading the
     * row — its capture inserts nothing (FirstCaptureIT: not even a transaction id is taken) — then none.
     */
    static final long REPLAY_READS = 1;
    /**
     * Per item of a reconcile run over a backlog of unknown operations, half found at the target and half absent
     * (sent again): per chunk of 20, the claim (the due rows locked, then all leased with their events), the answers'
     * record (every found row settled with its event by one statement; every other row locked by one read; all their
     * next attempts leased by one statement), and one outcome per absent item — 0.5 for the outcomes, 0.75 in all.
     * (A lapsed attempt's row waits out its settle window, so it is not in this run.) A bound, not an exact figure: a
     * holder renews its lease when a call outlives part of it, which a slow machine makes happen.
     */
    static final double RECONCILE_STATEMENTS = 0.95;
    /**
     * Per batch of 20: the claim's commit, the look-ups' record, the new attempts' outcomes (0.15); the rest is room for
     * a lease renewal on a slow machine.
     */
    static final double RECONCILE_COMMITS = 0.3;
    /** At least: an absent item's outcome, whatever else the run does; the three commits of a chunk (0.15). */
    static final double RECONCILE_AT_LEAST_STATEMENTS = 0.5;
    static final double RECONCILE_AT_LEAST_COMMITS = 0.14;
    private static final int BACKLOG = 40;
    private static final int OPERATIONS = 20;
    private static final String DATABASE = "budget";

    private static EmbeddedPostgres postgres;
    private static GatewayProcess gateway;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().setServerConfig("shared_preload_libraries", "pg_stat_statements")
                .setServerConfig("pg_stat_statements.track_utility", "on")
                .setServerConfig("autovacuum", "off") // an ANALYZE takes a transaction id of its own
                .start();
        String jdbcUrl = LocalStack.database(postgres, DATABASE);
        try (Connection c = postgres.getPostgresDatabase().getConnection()) { // where the counting reads from
            c.createStatement().execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
        Map<String, String> config = TestStack.configFor(jdbcUrl);
        config.put("toolgate.reconcile.interval-seconds", "0");
        config.put("toolgate.retention.purge-interval-seconds", "0");
        gateway = TestStack.readyGateway(config, "budget-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
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
        Figures each = count.per(OPERATIONS);
        System.out.printf("statement budget: new operation %s (expected %s); %s%n", each, NEW, count.byStatement());
        assertEquals(NEW, each, NEW_COMMITS_WHY + "; " + count.byStatement());
        assertConnectionsNotPerOperation(count);
    }

    @Test
    void aReplayOfAnOperationThisInstanceFinishedMakesNoStatement() throws Exception {
        Agent agent = new Agent(gateway.baseUrl());
        warmUp(agent);
        String key = "test:invoice.create:budget-replay-" + UUID.randomUUID() + ":v1";
        assertEquals(201, agent.submit(key, Agent.invoice("order-budget", 5000)).status());
        Count count = counted(() -> replays(agent, key));
        Figures each = count.per(OPERATIONS);
        System.out.printf("statement budget: replay held %s (expected %s); %s%n", each, REPLAY_HELD, count.byStatement());
        assertEquals(REPLAY_HELD, each, count.byStatement().toString());
    }

    @Test
    void aReplayOfARowOnlyTheJournalHoldsReadsItOnceAndWritesNothing() throws Exception {
        Agent agent = new Agent(gateway.baseUrl());
        warmUp(agent);
        String original = "test:invoice.create:budget-original-" + UUID.randomUUID() + ":v1";
        assertEquals(201, agent.submit(original, Agent.invoice("order-budget", 5000)).status());
        String key = "test:invoice.create:budget-elsewhere-" + UUID.randomUUID() + ":v1";
        // as another instance would have left it: in the journal, not in this one's memory
        JournalRows.copyFinished(() -> postgres.getDatabase("postgres", DATABASE).getConnection(), original, key, "");
        Count count = counted(() -> replays(agent, key));
        System.out.printf("statement budget: %d replays of a row only the journal held: %d statements, %d BEGIN, %d transaction ids; %s%n",
                OPERATIONS, count.statements(), count.begins(), count.transactionIds() - count.listenerWrites(), count.byStatement());
        assertEquals(REPLAY_READS, count.statements(), count.byStatement().toString());
        assertEquals(0, count.begins(), count.byStatement().toString());
        assertEquals(0, count.transactionIds() - count.listenerWrites(), "a replay writes nothing; " + count.byStatement());
        assertConnectionsNotPerOperation(count);
    }

    @Test
    void aReconcileItemStaysWithinItsStatementBudget() throws Exception {
        List<String> first = backlog(4);
        reconcileOnce(); // prepares the job's statements
        assertSucceeded(first);
        List<String> keys = backlog(BACKLOG);
        Count count = counted(StatementBudgetIT::reconcileOnce);
        assertSucceeded(keys); // every one found, or sent again
        Figures each = count.per(BACKLOG);
        System.out.printf("statement budget: reconcile item %s (budget %.1f statements, %.1f commits); %s%n",
                each, RECONCILE_STATEMENTS, RECONCILE_COMMITS, count.byStatement());
        assertTrue(each.statements() >= RECONCILE_AT_LEAST_STATEMENTS && each.statements() <= RECONCILE_STATEMENTS,
                each + "; " + count.byStatement());
        assertTrue(each.commits() >= RECONCILE_AT_LEAST_COMMITS && each.commits() <= RECONCILE_COMMITS, each + "; " + count.byStatement());
    }

    /**
     * The driver's catalog reads are left out of the figures as a connection's cost; that holds only while they, and
     * the connections that send them, are not per operation: both bounded here.
     */
    private static void assertConnectionsNotPerOperation(Count count) {
        assertTrue(count.connectionsOpened() <= OPERATIONS / 4, "connections opened during " + OPERATIONS
                + " operations: " + count.connectionsOpened() + "; " + count.byStatement());
        assertTrue(count.catalogReads() <= OPERATIONS / 4, "the driver's catalog reads during " + OPERATIONS
                + " operations: " + count.catalogReads() + "; " + count.byStatement());
    }

    /** {@link #OPERATIONS} replays of {@code key}'s invoice, each answered as one. */
    private static void replays(Agent agent, String key) {
        for (int i = 0; i < OPERATIONS; i++) {
            Agent.Answer replay = agent.submit(key, Agent.invoice("order-budget", 5000));
            assertEquals(200, replay.status(), replay.body());
            assertEquals("true", replay.header("Idempotent-Replayed"));
        }
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

    /**
     * The workload's statements, BEGINs and written commits. Read from the {@code postgres} database, so the counting
     * adds nothing to the journal's: {@code pg_stat_statements} is the cluster's, and so is the next transaction id.
     */
    private static Count counted(Workload workload) throws Exception {
        long before;
        try (Connection c = postgres.getPostgresDatabase().getConnection()) {
            c.createStatement().execute("SELECT pg_stat_statements_reset()");
            before = nextTransactionId(c);
        }
        workload.run();
        Map<String, Long> calls = new TreeMap<>();
        long after;
        try (Connection c = postgres.getPostgresDatabase().getConnection()) {
            after = nextTransactionId(c);
            try (ResultSet rows = c.createStatement().executeQuery("SELECT query, calls FROM pg_stat_statements s"
                    + " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '" + DATABASE + "'")) {
                while (rows.next()) {
                    calls.merge(rows.getString(1).replaceAll("\\s+", " "), rows.getLong(2), Long::sum);
                }
            }
        }
        return new Count(calls, after - before);
    }

    /** The id the next transaction to write will take; reading it takes none. */
    private static long nextTransactionId(Connection c) throws SQLException {
        try (ResultSet r = c.createStatement().executeQuery("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint")) {
            r.next();
            return r.getLong(1);
        }
    }

    private interface Workload {
        void run() throws Exception;
    }

    /** Per operation: statements, transactions opened by BEGIN, commits that wrote (transaction ids taken). */
    record Figures(double statements, double begins, double commits) {
        @Override
        public String toString() {
            return String.format("%.1f statements, %.1f BEGIN, %.1f commits", statements, begins, commits);
        }
    }

    /**
     * Calls per statement text, and the transaction ids taken meanwhile. pg_stat_statements lists every BEGIN the
     * driver sends but few of its COMMITs (4 of 63 in a reconcile run), and an autocommitted write has neither: commits
     * are counted by the ids taken instead, one per transaction that wrote, however it was opened.
     */
    private record Count(Map<String, Long> byStatement, long transactionIds) {
        Figures per(int operations) {
            return new Figures((double) statements() / operations, (double) begins() / operations,
                    (double) (transactionIds - listenerWrites()) / operations);
        }

        long begins() {
            return byStatement.entrySet().stream().filter(e -> e.getKey().trim().equalsIgnoreCase("BEGIN"))
                    .mapToLong(Map.Entry::getValue).sum();
        }

        long statements() {
            return byStatement.entrySet().stream()
                    .filter(e -> !isTransactionControl(e.getKey()) && !isListener(e.getKey()) && !isConnectionSetUp(e.getKey()))
                    .mapToLong(Map.Entry::getValue).sum();
        }

        long catalogReads() {
            return byStatement.entrySet().stream().filter(e -> isConnectionSetUp(e.getKey())).mapToLong(Map.Entry::getValue).sum();
        }

        /** Connections the pool opened during the workload: each sends its {@code SET application_name}. */
        long connectionsOpened() {
            return byStatement.entrySet().stream().filter(e -> e.getKey().trim().toUpperCase().startsWith("SET APPLICATION_NAME"))
                    .mapToLong(Map.Entry::getValue).sum();
        }

        /**
         * The driver's reads of the catalog: once per connection and type, when a fresh connection first binds a
         * parameter of that type — a connection's cost, not an operation's. A CI run once had the pool open two
         * connections in the window, and one of them asked for a type's length: 2.1 statements per operation.
         */
        private static boolean isConnectionSetUp(String query) {
            return query.toLowerCase().contains("from pg_catalog.pg_type");
        }

        /** Each announcement the listener sends itself is an autocommitted NOTIFY, which takes a transaction id. */
        private long listenerWrites() {
            return byStatement.entrySet().stream().filter(e -> e.getKey().trim().toUpperCase().startsWith("SELECT PG_NOTIFY("))
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
