package dev.toolgate.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.canonical.Jsons;
import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationId;
import dev.toolgate.journal.StatementRecorder;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.RetryPolicy;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The reconcile job's outcomes of a chunk, recorded together on real PostgreSQL through the application's persistence
 * unit: each as an agent's attempt records its own (one fenced statement with its event, in its operation's trace), all
 * in one transaction; an attempt the fence keeps out is refused and says so without keeping the others out.
 */
class OutcomeRecorderIT {

    private static final String HASH = "e".repeat(64);
    private static JournalDatabase database;
    private static StatementRecorder statements;
    private static EntityManagerFactory unit;

    @BeforeAll
    static void migrate() throws Exception {
        database = JournalDatabase.migrated();
        statements = new StatementRecorder(database.dataSource());
        unit = JournalDatabase.persistenceUnit(statements.dataSource());
        Logger.getLogger("dev.toolgate.operations").setLevel(Level.OFF);
    }

    @AfterAll
    static void stop() throws Exception {
        unit.close();
        database.close();
    }

    @Test
    void aChunksOutcomesAreEachOneFencedStatementWithItsEventInItsOperationsTraceInOrder() throws SQLException {
        String created = startedRow(3, "4bf92f3577b34da6a3ce929d0e0e4736");
        String refused = startedRow(3, "0af7651916cd43dd8448eb211c80319c");
        String lost = startedRow(3, null);
        List<OperationView> attempts = List.of(attempt(created), attempt(refused), attempt(lost));
        statements.clear();

        List<Phase> recorded = recordAll(List.of(
                new Dispatcher.Sent(attempts.get(0), new Outcome.Succeeded("doc-1", Jsons.JSON.createObjectBuilder().add("id", "doc-1").build(), 201),
                        Duration.ofMillis(12), null),
                new Dispatcher.Sent(attempts.get(1), new Outcome.Rejected("currency_not_configured", "no RUB", 400), Duration.ofMillis(7), null),
                new Dispatcher.Sent(attempts.get(2), new Outcome.Unknown("response_timeout", null), Duration.ofMillis(30_000), null)));

        assertEquals(3, statements.statements().size(), "one statement an attempt, nothing read: " + statements.statements());
        assertEquals(List.of(OperationStatus.SUCCEEDED, OperationStatus.FAILED_FINAL, OperationStatus.UNKNOWN),
                recorded.stream().map(phase -> phase.operation().status()).toList(), "in the attempts' order");
        assertTrue(recorded.stream().allMatch(Phase::byThisCall));
        assertEquals(List.of("outcome 2: target object doc-1 in 4bf92f3577b34da6a3ce929d0e0e4736"), events(created));
        assertEquals(List.of("outcome 2: currency_not_configured: no RUB in 0af7651916cd43dd8448eb211c80319c"), events(refused));
        assertEquals(List.of("outcome 2: response_timeout in a trace of its own"), events(lost));
    }

    @Test
    void anAttemptAnotherHolderTookOverIsRefusedAndTheOthersInItsChunkAreStillRecorded() throws SQLException {
        String taken = startedRow(3, null);
        String ours = startedRow(3, null);
        List<OperationView> attempts = List.of(attempt(taken), attempt(ours));
        exec("UPDATE agent_operation_log SET status = 'unknown', lease_epoch = 4 WHERE operation_key = '" + taken + "'"); // a look-up's now

        List<Phase> recorded = recordAll(List.of(
                new Dispatcher.Sent(attempts.get(0), new Outcome.Transient("target_unavailable", null, 503), Duration.ofMillis(5), null),
                new Dispatcher.Sent(attempts.get(1), new Outcome.Succeeded("doc-2", Jsons.JSON.createObjectBuilder().build(), 201),
                        Duration.ofMillis(5), null)));

        assertFalse(recorded.get(0).byThisCall(), "fenced out: the look-up's row stands");
        assertEquals(OperationStatus.UNKNOWN, recorded.get(0).operation().status());
        assertEquals(List.of("outcome_refused 2: target_unavailable in a trace of its own"), events(taken));
        assertEquals(OperationStatus.SUCCEEDED, recorded.get(1).operation().status());
        assertEquals(List.of("outcome 2: target object doc-2 in a trace of its own"), events(ours));
    }

    @Test
    void aChunksOutcomesAreCountedOnlyOnceItsTransactionCommits() throws SQLException {
        String key = startedRow(3, null);
        OperationView attempt = attempt(key);
        OutcomeRecorder recorder = recorder();
        List<Runnable> onCommit = new ArrayList<>();
        recorder.afterCommit = onCommit::add; // as the container holds it until the commit

        JournalDatabase.inTransaction(unit, em -> {
            recorder.em = em;
            return recorder.recordAll(List.of(new Dispatcher.Sent(attempt, new Outcome.Succeeded("doc-3",
                    Jsons.JSON.createObjectBuilder().build(), 201), Duration.ofMillis(5), null)), DueOperations.ACTOR);
        });

        assertEquals("", metrics(recorder), "nothing counted while the chunk may still roll back (and be recorded again)");
        onCommit.forEach(Runnable::run);
        assertTrue(metrics(recorder).contains("toolgate_outcomes_total{target=\"1c\",status=\"succeeded\"} 1"), metrics(recorder));
    }

    private static String metrics(OutcomeRecorder recorder) {
        StringBuilder out = new StringBuilder();
        recorder.metrics.write(out);
        return out.toString().lines().filter(line -> line.startsWith("toolgate_outcomes_total")).reduce("", String::concat);
    }

    private static List<Phase> recordAll(List<Dispatcher.Sent> sent) {
        OutcomeRecorder recorder = recorder();
        return JournalDatabase.inTransaction(unit, em -> {
            recorder.em = em;
            return recorder.recordAll(sent, DueOperations.ACTOR);
        });
    }

    private static OutcomeRecorder recorder() {
        OutcomeRecorder recorder = new OutcomeRecorder();
        recorder.settings = JournalDatabase.settings(30, 30, 10);
        recorder.metrics = new GatewayMetrics();
        recorder.afterCommit = Runnable::run; // no container: counted at once
        recorder.policies = new RetryPolicies() { // the defaults, without a configuration to read them from
            @Override
            public RetryPolicy of(String system) {
                return RetryPolicy.DEFAULT;
            }
        };
        return recorder;
    }

    /** Attempt 2 in flight under lease epoch {@code epoch}, recorded in trace {@code traceId} (none when null). */
    private static String startedRow(long epoch, String traceId) throws SQLException {
        String key = "test:invoice.create:" + UUID.randomUUID() + ":v1";
        exec("INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload, status, target_system,"
                + " attempt_count, lease_until, lease_epoch, trace_id) VALUES ('acme', '" + key + "', 'invoice.create', '" + HASH + "',"
                + " '{}', 'started', '1c', 2, now() + interval '30 seconds', " + epoch + ", "
                + (traceId == null ? "NULL" : "'" + traceId + "'") + ")");
        return key;
    }

    private static OperationView attempt(String key) {
        return JournalDatabase.inTransaction(unit, em -> em.find(Operation.class, new OperationId("acme", key)).view());
    }

    private static List<String> events(String key) throws SQLException {
        List<String> events = new ArrayList<>();
        try (Connection c = database.connection(); ResultSet r = c.createStatement().executeQuery(
                "SELECT kind, attempt, detail, trace_id FROM operation_event WHERE operation_key = '" + key + "' ORDER BY id")) {
            while (r.next()) {
                String trace = r.getString(4);
                boolean known = List.of("4bf92f3577b34da6a3ce929d0e0e4736", "0af7651916cd43dd8448eb211c80319c").contains(trace);
                // an operation captured with no trace: the job's work on it gets one, as the job's per-item work always did
                events.add(r.getString(1) + " " + r.getInt(2) + ": " + r.getString(3) + " in "
                        + (known ? trace : trace != null && trace.matches("[0-9a-f]{32}") ? "a trace of its own" : trace));
            }
        }
        return events;
    }

    private static void exec(String sql) throws SQLException {
        try (Connection c = database.connection()) {
            c.createStatement().execute(sql);
        }
    }
}
