package dev.toolgate.lifecycle;

import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationId;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.journal.StatementRecorder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.canonical.Jsons;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.RetryPolicy;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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
 * The recorders of a look-up's answer and of an attempt's outcome, on real PostgreSQL through the application's
 * persistence unit. A found object settles the row in one statement, with no read before it; when another holder has
 * taken the row over meanwhile, nothing is written and the refusal is journaled with why, as when the row is read
 * first. The reconcile job's chunks: their answers and their outcomes each recorded in one transaction, every row
 * fenced as an agent's would be, one kept out never keeping the others out, nothing counted before the commit.
 */
class RecordersIT {

    private static final String HASH = "d".repeat(64);
    /** The defaults, without a configuration to read them from. */
    private static final RetryPolicies DEFAULT_POLICIES = new RetryPolicies() {
        @Override
        public RetryPolicy of(String system) {
            return RetryPolicy.DEFAULT;
        }
    };

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();
    private static StatementRecorder statements;
    private static EntityManagerFactory unit;

    @BeforeAll
    static void migrate() throws Exception {
        statements = new StatementRecorder(database.dataSource());
        unit = JournalDatabase.persistenceUnit(statements.dataSource());
        // the events' log lines wait for a container transaction's commit; the journal's rows are what is checked here
        Logger.getLogger("dev.toolgate.operations").setLevel(Level.OFF);
    }

    @AfterAll
    static void stop() throws Exception {
        unit.close();
    }

    @Test
    void aFoundObjectSettlesTheRowWithItsEventInOneStatement() throws SQLException {
        String key = unknownRow(2);
        OperationView leased = leased(key);
        statements.clear();

        Phase settled = record(leased, new Lookup.Found("ref-7", Jsons.JSON.createObjectBuilder().add("id", "ref-7").build()));

        assertEquals(1, statements.statements().size(), "no read before the write: " + statements.statements());
        assertEquals(OperationStatus.SUCCEEDED, settled.operation().status());
        assertEquals("ref-7", settled.operation().targetObjectId());
        assertFalse(settled.byThisCall(), "found: an earlier attempt's effect, no next attempt leased");
        assertEquals("succeeded ref-7", row(key));
        assertEquals(List.of("reconciled 1: found target object ref-7"), events(key));
    }

    @Test
    void aFoundObjectWhoseRowAnotherLookUpTookOverIsNotWrittenAndTheRefusalSaysWhy() throws SQLException {
        String key = unknownRow(2);
        OperationView leased = leased(key);
        exec("UPDATE agent_operation_log SET lease_epoch = 3 WHERE operation_key = '" + key + "'"); // another look-up's lease

        Phase refused = record(leased, new Lookup.Found("ref-8", Jsons.JSON.createObjectBuilder().build()));

        assertEquals(OperationStatus.UNKNOWN, refused.operation().status(), "the row as it is now");
        assertEquals(3, refused.operation().leaseEpoch());
        assertEquals("unknown null", row(key));
        assertEquals(List.of("outcome_refused 1: found target object ref-8; not written: another look-up or attempt holds the"
                + " operation now (lease 3)"), events(key));
    }

    @Test
    void aFailedObjectOnAnEscalatedRowIsNotWrittenAndTheRefusalSaysWhy() throws SQLException {
        String key = unknownRow(2);
        OperationView leased = leased(key);
        exec("UPDATE agent_operation_log SET escalated_at = now() WHERE operation_key = '" + key + "'"); // a person's now

        record(leased, new Lookup.Failed("ref-9", "rejected", "the target refused it"));

        assertEquals("unknown null", row(key));
        assertEquals(List.of("outcome_refused 1: target object ref-9 failed: rejected; not written: the operation is escalated:"
                + " only a person settles it"), events(key));
    }

    @Test
    void aPendingAnswerToALookUpMadeBeforeItWasDueReleasesTheLeaseAndChangesNothingElse() throws SQLException {
        String key = unknownRow(2);
        exec("UPDATE agent_operation_log SET next_check_at = now() + interval '60 seconds', reconcile_count = 4,"
                + " error_code = 'target_pending' WHERE operation_key = '" + key + "'");
        OperationView leased = leased(key);

        Phase released = record(leased, new Lookup.Pending("YooKassa p-1 is pending"));

        assertEquals(OperationStatus.UNKNOWN, released.operation().status());
        assertEquals(null, released.operation().leaseUntil(), "the lease is free for the job or the agent");
        assertEquals(leased.nextCheckAt(), released.operation().nextCheckAt(), "the schedule stays");
        assertEquals(4, released.operation().reconcileCount(), "not counted toward escalation");
        assertEquals(List.of("reconciled 1: pending: YooKassa p-1 is pending; looked up before it was due: its schedule and look-up"
                + " count stay as they were"), events(key));
    }

    @Test
    void aChunksFoundAndFailedObjectsAreSettledByOneStatementEachEventInItsOperationsTrace() throws SQLException {
        String found = unknownRow(2, "4bf92f3577b34da6a3ce929d0e0e4736");
        String failed = unknownRow(2, "0af7651916cd43dd8448eb211c80319c");
        List<OperationView> leased = List.of(leased(found), leased(failed));
        statements.clear();

        List<Phase> recorded = recordAll(leased, List.of(new Lookup.Found("ref-1", Jsons.JSON.createObjectBuilder().add("id", "ref-1").build()),
                new Lookup.Failed("ref-2", "rejected", "the target refused it")));

        assertEquals(1, statements.statements().size(), "both rows and both events in one statement: " + statements.statements());
        assertEquals(List.of(OperationStatus.SUCCEEDED, OperationStatus.FAILED_FINAL),
                recorded.stream().map(phase -> phase.operation().status()).toList(), "in the items' order");
        assertEquals("succeeded ref-1", row(found));
        assertEquals("{\"id\": \"ref-1\"}", response(found), "the found object's answer stored as the operation's result");
        assertEquals("failed_final null", row(failed), "a failed object is named in the result, not as the effect");
        assertEquals(List.of("reconciled 1: found target object ref-1 in 4bf92f3577b34da6a3ce929d0e0e4736"), tracedEvents(found));
        assertEquals(List.of("reconciled 1: target object ref-2 failed: rejected in 0af7651916cd43dd8448eb211c80319c"), tracedEvents(failed));
    }

    @Test
    void inAChunkARowAnotherLookUpTookOverIsRefusedWithWhyAndTheOthersAreStillSettled() throws SQLException {
        String taken = unknownRow(2, null);
        String ours = unknownRow(2, null);
        List<OperationView> leased = List.of(leased(taken), leased(ours));
        exec("UPDATE agent_operation_log SET lease_epoch = 3 WHERE operation_key = '" + taken + "'"); // another look-up's lease

        List<Phase> recorded = recordAll(leased, List.of(new Lookup.Found("ref-3", Jsons.JSON.createObjectBuilder().build()),
                new Lookup.Found("ref-4", Jsons.JSON.createObjectBuilder().build())));

        assertEquals(3, recorded.get(0).operation().leaseEpoch(), "the taken row as it is now");
        assertEquals("unknown null", row(taken));
        assertEquals(List.of("outcome_refused 1: found target object ref-3; not written: another look-up or attempt holds the"
                + " operation now (lease 3)"), events(taken));
        assertEquals("succeeded ref-4", row(ours));
        assertEquals(List.of("reconciled 1: found target object ref-4"), events(ours));
    }

    @Test
    void inAChunkTheAbsentObjectsPastTheirSettleWindowAreLockedTogetherAndTheirNextAttemptsLeasedTogether() throws SQLException {
        String absent = unknownRow(2, null);
        String found = unknownRow(2, null);
        String alsoAbsent = unknownRow(2, null);
        List<OperationView> leased = List.of(leased(absent), leased(found), leased(alsoAbsent));
        statements.clear();

        List<Phase> recorded = recordAll(leased, List.of(new Lookup.Absent(), new Lookup.Found("ref-5", Jsons.JSON.createObjectBuilder().build()),
                new Lookup.Absent()));

        assertEquals(3, statements.statements().size(), "the found settled, both absent rows locked by one read, both next attempts"
                + " leased by one write: " + statements.statements());
        assertEquals(List.of("reconciled 1: absent", "attempt_started 2: look-up found no effect of attempt 1"), events(alsoAbsent));
        assertEquals(true, recorded.get(2).byThisCall());
        assertEquals(3, recorded.get(2).operation().leaseEpoch(), "a new lease epoch: whoever held the look-up is fenced out");
        assertEquals(0, recorded.get(2).operation().reconcileCount(), "its look-ups counted afresh");

        assertEquals(true, recorded.get(0).byThisCall(), "no effect: the next attempt is leased to the job");
        assertEquals(OperationStatus.STARTED, recorded.get(0).operation().status());
        assertEquals(2, recorded.get(0).operation().attemptCount());
        assertEquals(List.of("reconciled 1: absent", "attempt_started 2: look-up found no effect of attempt 1"), events(absent));
        assertFalse(recorded.get(1).byThisCall());
        assertEquals("succeeded ref-5", row(found));
    }

    @Test
    void aChunksOutcomesAreEachOneFencedStatementWithItsEventInItsOperationsTraceInOrder() throws SQLException {
        String created = startedRow(3, "4bf92f3577b34da6a3ce929d0e0e4736");
        String refused = startedRow(3, "0af7651916cd43dd8448eb211c80319c");
        String lost = startedRow(3, null);
        List<OperationView> attempts = List.of(leased(created), leased(refused), leased(lost));
        statements.clear();

        List<Phase> recorded = recordOutcomes(List.of(
                new Dispatcher.Sent(attempts.get(0), new Outcome.Succeeded("doc-1", Jsons.JSON.createObjectBuilder().add("id", "doc-1").build(), 201),
                        Duration.ofMillis(12), null),
                new Dispatcher.Sent(attempts.get(1), new Outcome.Rejected("currency_not_configured", "no RUB", 400), Duration.ofMillis(7), null),
                new Dispatcher.Sent(attempts.get(2), new Outcome.Unknown("response_timeout", null), Duration.ofMillis(30_000), null)));

        assertEquals(3, statements.statements().size(), "one statement an attempt, nothing read: " + statements.statements());
        assertEquals(List.of(OperationStatus.SUCCEEDED, OperationStatus.FAILED_FINAL, OperationStatus.UNKNOWN),
                recorded.stream().map(phase -> phase.operation().status()).toList(), "in the attempts' order");
        assertTrue(recorded.stream().allMatch(Phase::byThisCall));
        assertEquals(List.of("outcome 2: target object doc-1 in 4bf92f3577b34da6a3ce929d0e0e4736"), tracedEvents(created));
        assertEquals(List.of("outcome 2: currency_not_configured: no RUB in 0af7651916cd43dd8448eb211c80319c"), tracedEvents(refused));
        assertEquals(List.of("outcome 2: response_timeout in a trace of its own"), tracedEvents(lost));
    }

    @Test
    void anAttemptAnotherHolderTookOverIsRefusedAndTheOthersInItsChunkAreStillRecorded() throws SQLException {
        String taken = startedRow(3, null);
        String ours = startedRow(3, null);
        List<OperationView> attempts = List.of(leased(taken), leased(ours));
        exec("UPDATE agent_operation_log SET status = 'unknown', lease_epoch = 4 WHERE operation_key = '" + taken + "'"); // a look-up's now

        List<Phase> recorded = recordOutcomes(List.of(
                new Dispatcher.Sent(attempts.get(0), new Outcome.Transient("target_unavailable", null, 503), Duration.ofMillis(5), null),
                new Dispatcher.Sent(attempts.get(1), new Outcome.Succeeded("doc-2", Jsons.JSON.createObjectBuilder().build(), 201),
                        Duration.ofMillis(5), null)));

        assertFalse(recorded.get(0).byThisCall(), "fenced out: the look-up's row stands");
        assertEquals(OperationStatus.UNKNOWN, recorded.get(0).operation().status());
        assertEquals(List.of("outcome_refused 2: target_unavailable in a trace of its own"), tracedEvents(taken));
        assertEquals(OperationStatus.SUCCEEDED, recorded.get(1).operation().status());
        assertEquals(List.of("outcome 2: target object doc-2 in a trace of its own"), tracedEvents(ours));
    }

    @Test
    void aChunksOutcomesAreCountedOnlyOnceItsTransactionCommits() throws SQLException {
        String key = startedRow(3, null);
        OperationView attempt = leased(key);
        OutcomeRecorder recorder = outcomeRecorder();
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

    private static List<Phase> recordOutcomes(List<Dispatcher.Sent> sent) {
        OutcomeRecorder recorder = outcomeRecorder();
        return JournalDatabase.inTransaction(unit, em -> {
            recorder.em = em;
            return recorder.recordAll(sent, DueOperations.ACTOR);
        });
    }

    private static OutcomeRecorder outcomeRecorder() {
        OutcomeRecorder recorder = new OutcomeRecorder();
        recorder.settings = JournalDatabase.settings(30, 30, 10);
        recorder.metrics = new GatewayMetrics();
        recorder.afterCommit = Runnable::run; // no container: counted at once
        recorder.policies = DEFAULT_POLICIES;
        return recorder;
    }

    private static List<Phase> recordAll(List<OperationView> leased, List<Lookup> lookups) {
        LookupRecorder recorder = recorder();
        return JournalDatabase.inTransaction(unit, em -> {
            recorder.em = em;
            return recorder.reconciledAll(leased, lookups, DueOperations.ACTOR);
        });
    }

    private static LookupRecorder recorder() {
        LookupRecorder recorder = new LookupRecorder();
        recorder.settings = JournalDatabase.settings(30, 30, 10);
        recorder.metrics = new GatewayMetrics();
        recorder.afterCommit = Runnable::run; // no container: counted at once
        recorder.policies = DEFAULT_POLICIES;
        return recorder;
    }

    private static Phase record(OperationView leased, Lookup lookup) {
        LookupRecorder recorder = recorder();
        return JournalDatabase.inTransaction(unit, em -> {
            recorder.em = em;
            return recorder.reconciled(leased, lookup, RetryPolicy.DEFAULT, DueOperations.ACTOR, true);
        });
    }

    /** An unknown row whose look-up lease is epoch {@code epoch}, live for 30 s. */
    private static String unknownRow(long epoch) throws SQLException {
        return unknownRow(epoch, null);
    }

    /** ... and recorded in trace {@code traceId} (none when null). */
    private static String unknownRow(long epoch, String traceId) throws SQLException {
        String key = "test:invoice.create:" + UUID.randomUUID() + ":v1";
        exec("INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload, status, target_system,"
                + " lease_until, lease_epoch, settle_after, trace_id) VALUES ('acme', '" + key + "', 'invoice.create', '" + HASH + "', '{}',"
                + " 'unknown', '1c', now() + interval '30 seconds', " + epoch + ", now() - interval '1 second', "
                + (traceId == null ? "NULL" : "'" + traceId + "'") + ")");
        return key;
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

    /** The row as the job's claim hands it on. */
    private static OperationView leased(String key) {
        return JournalDatabase.inTransaction(unit, em -> em.find(Operation.class, new OperationId("acme", key)).view());
    }

    private static String row(String key) throws SQLException {
        try (Connection c = database.connection(); ResultSet r = c.createStatement().executeQuery(
                "SELECT status, target_object_id FROM agent_operation_log WHERE operation_key = '" + key + "'")) {
            r.next();
            return r.getString(1) + " " + r.getString(2);
        }
    }

    private static List<String> events(String key) throws SQLException {
        List<String> events = new ArrayList<>();
        try (Connection c = database.connection(); ResultSet r = c.createStatement().executeQuery(
                "SELECT kind, attempt, detail FROM operation_event WHERE operation_key = '" + key + "' ORDER BY id")) {
            while (r.next()) {
                events.add(r.getString(1) + " " + r.getInt(2) + ": " + r.getString(3));
            }
        }
        return events;
    }

    /** Each event with its trace: one of this test's own by its id, any other (an untraced row's work gets one) as such. */
    private static List<String> tracedEvents(String key) throws SQLException {
        List<String> events = new ArrayList<>();
        try (Connection c = database.connection(); ResultSet r = c.createStatement().executeQuery(
                "SELECT kind, attempt, detail, trace_id FROM operation_event WHERE operation_key = '" + key + "' ORDER BY id")) {
            while (r.next()) {
                String trace = r.getString(4);
                boolean known = List.of("4bf92f3577b34da6a3ce929d0e0e4736", "0af7651916cd43dd8448eb211c80319c").contains(trace);
                events.add(r.getString(1) + " " + r.getInt(2) + ": " + r.getString(3) + " in "
                        + (known ? trace : trace != null && trace.matches("[0-9a-f]{32}") ? "a trace of its own" : trace));
            }
        }
        return events;
    }

    private static String response(String key) throws SQLException {
        try (Connection c = database.connection(); ResultSet r = c.createStatement().executeQuery(
                "SELECT response_json FROM agent_operation_log WHERE operation_key = '" + key + "'")) {
            r.next();
            return r.getString(1);
        }
    }

    private static void exec(String sql) throws SQLException {
        try (Connection c = database.connection()) {
            c.createStatement().execute(sql);
        }
    }
}
