package dev.toolgate.it.reconciliation;

import static dev.toolgate.it.support.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.InstancePair;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.OneCDirect;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Two gateway instances on one PostgreSQL run the reconcile job over the same backlog of unknown
 * operations at once: every operation is reconciled exactly once (its events say so), and every key
 * ends with exactly one document. Prints the throughput. Retention runs on the same journal.
 * The backlog size is {@code -Dtoolgate.backlog} (default 1,000). The two instances are the run's {@link InstancePair}
 * (no background job: the test starts both runs together; retention's purge every 2 s).
 */
@Lane(3) // the pair's lane, with RevocationAcrossInstancesIT
@InstancePair.Shares
class TwoInstancesIT {

    private static final int BACKLOG = Integer.getInteger("toolgate.backlog", 1_000);
    private static final String DATABASE = InstancePair.DATABASE;

    private static GatewayProcess first;
    private static GatewayProcess second;
    private final SimulatorClient oneC = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        InstancePair pair = InstancePair.get();
        first = pair.first;
        second = pair.second;
    }

    @AfterAll
    static void stop() throws Exception {
        InstancePair.release();
    }

    @Test
    void twoInstancesReconcileEachOperationOfABacklogExactlyOnce() throws Exception {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < BACKLOG; i++) {
            keys.add("test:invoice.create:backlog-" + batch + "-" + i + ":v1");
        }
        insertUnknown(keys);
        for (int i = 0; i < keys.size(); i += 2) { // half the lost responses did create their document
            OneCDirect.createDocument(Agent.downstream(keys.get(i)));
        }

        Instant started = Instant.now();
        startRun(first);
        startRun(second);
        await(() -> unsettled(batch) == 0, "the backlog to settle", Duration.ofSeconds(60 + BACKLOG / 10));
        Duration took = Duration.between(started, Instant.now());
        System.out.printf("reconcile throughput: %d unknown operations settled by 2 instances in %.1f s = %.0f ops/s%n",
                BACKLOG, took.toMillis() / 1000.0, BACKLOG * 1000.0 / took.toMillis());

        Map<String, int[]> events = events(batch);
        for (String key : keys) {
            assertEquals(1, events.get(key)[0], "one look-up claimed for " + key);
            assertEquals(1, events.get(key)[1], "one reconciled event for " + key);
            assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size(), "one document for " + key);
            assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "one create for " + key);
        }
    }

    @Test
    void concurrentDuplicatesSentToBothInstancesMakeOneEffectPerKey() throws Exception {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            keys.add("test:invoice.create:dup-" + batch + "-" + i + ":v1");
        }
        ExecutorService callers = Executors.newFixedThreadPool(8);
        List<Future<Agent.Answer>> answers = new ArrayList<>();
        for (String key : keys) {
            for (GatewayProcess gateway : List.of(first, second, first, second)) { // a load balancer spreading retries
                answers.add(callers.submit(() -> agent(gateway).submit(key, Agent.invoice("order-" + key, 4200))));
            }
        }
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (Future<Agent.Answer> answer : answers) {
            statuses.merge(answer.get().status(), 1, Integer::sum);
        }
        callers.shutdown();
        // whoever lost the race was told to come back; coming back through either instance replays the one result
        for (String key : keys) {
            Agent.Answer settled = agent(second).submit(key, Agent.invoice("order-" + key, 4200));
            for (int i = 0; i < 20 && settled.status() != 200 && settled.status() != 201; i++) {
                Thread.sleep(250);
                settled = agent(i % 2 == 0 ? first : second).submit(key, Agent.invoice("order-" + key, 4200));
            }
            assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size(), "one document for " + key);
            assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "one create for " + key + " though four callers raced");
            assertEquals(oneC.effects("1c", Agent.downstream(key)).get(0), settled.json().getString("target_object_id"));
        }
        assertTrue(statuses.keySet().stream().allMatch(s -> s == 201 || s == 200 || s == 409), "answers: " + statuses);
    }

    @Test
    void retentionPurgesOnlyFinishedOperationsPastTheirTime() throws Exception {
        Instant old = Instant.now().minus(Duration.ofDays(40));
        String tag = UUID.randomUUID().toString().substring(0, 8);
        try (Connection c = TestStack.connect(DATABASE)) {
            row(c, "old-succeeded-" + tag, "succeeded", old, "ref-1", old, null);
            row(c, "old-failed-" + tag, "failed_final", old, null, old, null);
            row(c, "recent-succeeded-" + tag, "succeeded", Instant.now(), "ref-2", Instant.now(), null);
            row(c, "old-escalated-" + tag, "unknown", old, null, null, old);
            row(c, "old-started-" + tag, "started", old, null, null, null);
            row(c, "old-pending-approval-" + tag, "pending_approval", old, null, null, null);
        }

        await(() -> count("old-%-" + tag) == 3, "the purge job to delete the two expired rows");
        assertEquals(List.of("old-escalated-" + tag, "old-pending-approval-" + tag, "old-started-" + tag,
                "recent-succeeded-" + tag), keys("%-" + tag));
    }

    /** agent-a at {@code gateway}, with the token issued through the first instance (one journal, one principal table). */
    private static Agent agent(GatewayProcess gateway) {
        return new Agent(gateway.baseUrl(), "agent-a", first.baseUrl());
    }

    private static void startRun(GatewayProcess gateway) {
        Agent.Answer run = new Agent(gateway.baseUrl(), "operator", first.baseUrl()).send(HttpRequest.newBuilder(
                URI.create(gateway.baseUrl() + "/api/v1/reconciliations")).POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(202, run.status(), run.body());
    }

    /** Unknown operations whose lost responses are behind us: due now, settle window passed. */
    private static void insertUnknown(List<String> keys) throws SQLException {
        Timestamp past = Timestamp.from(Instant.now().minusSeconds(60));
        try (Connection c = TestStack.connect(DATABASE); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload, status,"
                        + " target_system, attempt_count, next_check_at, settle_after, error_code, created_at, updated_at)"
                        + " VALUES ('acme', ?, 'invoice.create', ?, CAST(? AS jsonb), 'unknown', '1c', 1, ?, ?, 'connection_lost', ?, ?)")) {
            for (String key : keys) {
                insert.setString(1, key);
                insert.setString(2, "b".repeat(64));
                insert.setString(3, "{\"order_id\":\"order-backlog\",\"amount_minor\":100,\"currency\":\"RUB\"}");
                insert.setTimestamp(4, past);
                insert.setTimestamp(5, past);
                insert.setTimestamp(6, past);
                insert.setTimestamp(7, past);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static void row(Connection c, String key, String status, Instant created, String objectId, Instant completed,
                            Instant escalated) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload, status,"
                        + " target_system, target_object_id, lease_until, created_at, updated_at, completed_at, escalated_at)"
                        + " VALUES ('acme', ?, 'invoice.create', ?, '{}', ?, '1c', ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, key);
            insert.setString(2, "c".repeat(64));
            insert.setString(3, status);
            insert.setString(4, objectId);
            // a started row under a live lease: its owner is still working, nobody may touch it
            insert.setTimestamp(5, status.equals("started") ? Timestamp.from(Instant.now().plus(Duration.ofDays(1))) : null);
            insert.setTimestamp(6, Timestamp.from(created));
            insert.setTimestamp(7, Timestamp.from(created));
            insert.setTimestamp(8, completed == null ? null : Timestamp.from(completed));
            insert.setTimestamp(9, escalated == null ? null : Timestamp.from(escalated));
            insert.executeUpdate();
        }
    }

    private static long unsettled(String batch) throws SQLException {
        return count("%backlog-" + batch + "%", "status <> 'succeeded'");
    }

    private static long count(String pattern) throws SQLException {
        return count(pattern, "true");
    }

    private static long count(String pattern, String condition) throws SQLException {
        try (Connection c = TestStack.connect(DATABASE); PreparedStatement q = c.prepareStatement(
                "SELECT count(*) FROM agent_operation_log WHERE operation_key LIKE ? AND " + condition)) {
            q.setString(1, pattern);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private static List<String> keys(String pattern) throws SQLException {
        try (Connection c = TestStack.connect(DATABASE); PreparedStatement q = c.prepareStatement(
                "SELECT operation_key FROM agent_operation_log WHERE operation_key LIKE ? ORDER BY operation_key")) {
            q.setString(1, pattern);
            List<String> keys = new ArrayList<>();
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    keys.add(r.getString(1));
                }
            }
            return keys;
        }
    }

    /** Per key: {reconcile_started events, reconciled events}. */
    private static Map<String, int[]> events(String batch) throws SQLException {
        Map<String, int[]> counts = new HashMap<>();
        try (Connection c = TestStack.connect(DATABASE); PreparedStatement q = c.prepareStatement(
                "SELECT operation_key, count(*) FILTER (WHERE kind = 'reconcile_started'),"
                        + " count(*) FILTER (WHERE kind = 'reconciled') FROM operation_event"
                        + " WHERE operation_key LIKE ? GROUP BY operation_key")) {
            q.setString(1, "%backlog-" + batch + "%");
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    counts.put(r.getString(1), new int[] {r.getInt(2), r.getInt(3)});
                }
            }
        }
        return counts;
    }
}
