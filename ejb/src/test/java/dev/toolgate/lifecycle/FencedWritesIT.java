package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.AttemptOutcomes;
import dev.toolgate.lifecycle.decisions.Transition;

import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.targets.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Every automatic write to an operation is fenced by the lease it holds (attempt, lease epoch, status)
 * and never touches an escalated operation: the recorder's own SQL, run on real PostgreSQL against
 * rows in the states that racing reconcilers and late owners meet.
 */
class FencedWritesIT {

    private static final String HASH = "b".repeat(64);

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();

    @Test
    void theOwnersOutcomeSettlesTheRowJournalsItsEventAndReturnsTheRowInOneStatement() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 1, false);
            exec(c, "UPDATE agent_operation_log SET status = 'started' WHERE operation_key = '" + key + "'");

            List<String> settled = settleLogged(c, key);

            assertEquals(List.of("succeeded"), settled, "the settled row comes back");
            assertEquals("succeeded", column(c, key, "status"));
            assertEquals(List.of("outcome"), events(c, key));
        }
    }

    @Test
    void anOutcomeTheFenceRefusesReturnsNoRowAndIsJournaledAsRefused() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, true); // escalated: only a person changes it now

            List<String> settled = settleLogged(c, key);

            assertEquals(List.of(), settled);
            assertEquals("unknown", column(c, key, "status"));
            assertEquals(List.of("outcome_refused"), events(c, key));
        }
    }

    @Test
    void aLookUpThatFoundTheObjectDoesNotOverwriteAnEscalation() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, true);
            assertEquals(0, settleByReconciler(c, key, 1, 2, "succeeded"), "an escalated operation is changed only by a person");
            assertEquals("unknown", column(c, key, "status"));
        }
    }

    @Test
    void aStaleAbsentDoesNotStartAnAttemptOnAnEscalatedOperation() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, true);
            assertEquals(0, retry(c, key, 1, 2));
            assertEquals("1", column(c, key, "attempt_count"));
        }
    }

    @Test
    void aReconcilerWhoseLeaseWasTakenOverCannotPostponeOrClearTheNewLease() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 3, false); // reconciler B holds epoch 3; A still thinks it holds 2
            assertEquals(0, postpone(c, key, 1, 2), "A's back-off would clear B's live lease");
            assertEquals(0, awaitSettle(c, key, 1, 2));
            assertEquals(0, settleByReconciler(c, key, 1, 2, "succeeded"));
            assertEquals(0, retry(c, key, 1, 2), "A's stale 'absent' would start an attempt B does not know of");
            assertEquals(1, postpone(c, key, 1, 3), "B's own write goes through");
        }
    }

    @Test
    void aNewAttemptAfterALookUpCountsItsLookUpsAfresh() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, false);
            exec(c, "UPDATE agent_operation_log SET reconcile_count = 5 WHERE operation_key = '" + key + "'");
            assertEquals(1, retry(c, key, 1, 2));
            assertEquals("0", column(c, key, "reconcile_count"));
            assertEquals("3", column(c, key, "lease_epoch"), "the new attempt holds a lease of its own");
        }
    }

    @Test
    void anOwnersLateSuccessSettlesTheUnknownItsOwnAttemptLeftBehind() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, false); // the job took the lapsed lease and is looking it up
            assertEquals(1, settleByOwner(c, key, 1, 1, "succeeded"), "the owner's success is the best evidence there is");
            assertEquals("succeeded", column(c, key, "status"));
        }
    }

    @Test
    void anOwnersLateFailureOrUnknownDoesNotOverwriteTheLookUp() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, false);
            assertEquals(0, settleByOwner(c, key, 1, 1, "failed_final"));
            assertEquals(0, settleByOwner(c, key, 1, 1, "unknown"));
            assertEquals("unknown", column(c, key, "status"));
        }
    }

    @Test
    void anOwnersLateSuccessDoesNotOverwriteAnEscalationOrALaterAttempt() throws SQLException {
        try (Connection c = connection()) {
            assertEquals(0, settleByOwner(c, unknown(c, 1, 2, true), 1, 1, "succeeded"), "escalated: a person decides");
            assertEquals(0, settleByOwner(c, unknown(c, 2, 4, false), 1, 1, "succeeded"), "attempt 2's unknown is not attempt 1's");
        }
    }

    @Test
    void anOwnerThatGaveUpLateMovesTheSettleWindowForwardNeverBack() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, false); // settle_after: a second ago
            assertEquals(1, extendSettle(c, key, 1, Instant.now().plusSeconds(5)));
            assertEquals(1, extendSettle(c, key, 1, Instant.now()));
            try (ResultSet later = c.createStatement().executeQuery("SELECT settle_after > now() + interval '4 seconds'"
                    + " FROM agent_operation_log WHERE operation_key = '" + key + "'")) {
                later.next();
                assertEquals(true, later.getBoolean(1), "an earlier moment never shortens the window");
            }
            assertEquals(0, extendSettle(c, unknown(c, 1, 2, true), 1, Instant.now()), "not an escalated operation");
            assertEquals(0, extendSettle(c, key, 2, Instant.now()), "not another attempt's");
        }
    }

    @Test
    void aContradictingEffectEscalatesAnUnsettledRowOnce() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 2, 4, false);
            assertEquals(1, escalate(c, key));
            assertEquals(0, escalate(c, key), "already a person's");
            exec(c, "UPDATE agent_operation_log SET status = 'failed_final', completed_at = now(), escalated_at = NULL"
                    + " WHERE operation_key = '" + key + "'");
            assertEquals(0, escalate(c, key), "a settled row is not reopened");
        }
    }

    @Test
    void anOwnerSettlesItsOwnStartedRowAndOnlyUnderItsOwnLease() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, false);
            exec(c, "UPDATE agent_operation_log SET status = 'started', settle_after = NULL WHERE operation_key = '" + key + "'");
            assertEquals(0, settleByOwner(c, key, 1, 1, "failed_final"), "a stale epoch is refused");
            assertEquals(1, settleByOwner(c, key, 1, 2, "failed_final"), "the lease's own epoch settles it");
        }
    }

    @Test
    void aLookUpsRetryReturnsTheNewAttemptsRowAndJournalsTheLookUpThenTheAttemptInOneStatement() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, false);

            List<String> written = lookedUp(c, OperationWrites.RETRY_LOGGED, key, "look-up found no effect of attempt 1",
                    Timestamp.from(Instant.now().plusSeconds(30)), now(), "acme", key, 1, 2L);

            assertEquals(List.of("started 2 3"), written, "the row as the retry left it: started, attempt 2, epoch 3");
            assertEquals(List.of("reconciled 1 unknown reconciler: look-up",
                    "attempt_started 2 started reconciler: look-up found no effect of attempt 1"), eventsWithAttempts(c, key));
        }
    }

    @Test
    void aLookUpsWriteTheFenceRefusesReturnsNoRowAndJournalsNothingForItsRecorderToSayWhy() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 3, false); // another holder's lease: epoch 3, not 2

            List<String> written = lookedUp(c, OperationWrites.RETRY_LOGGED, key, "look-up found no effect of attempt 1",
                    Timestamp.from(Instant.now().plusSeconds(30)), now(), "acme", key, 1, 2L);

            assertEquals(List.of(), written);
            assertEquals("1", column(c, key, "attempt_count"));
            assertEquals(List.of(), eventsWithAttempts(c, key), "no attempt started; the refusal is the recorder's to journal, with why");
        }
    }

    @Test
    void aLookUpThatSettlesJournalsOneReconciledEventAndNoAttempt() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, false);

            List<String> written = lookedUp(c, OperationWrites.SETTLE_LOOKUP_LOGGED, key, null,
                    "succeeded", "ref-1", null, null, null, now(), now(), null, "acme", key, 1, 2L);

            assertEquals(List.of("succeeded 1 2"), written);
            assertEquals(List.of("reconciled 1 unknown reconciler: look-up"), eventsWithAttempts(c, key));
        }
    }

    @Test
    void aLookUpThatCouldNotSettlePostponesTheNextOneWithItsEvent() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, false);

            List<String> written = lookedUp(c, OperationWrites.POSTPONE_LOGGED, key, null,
                    now(), 300, false, now(), "lookup_unavailable", now(), "acme", key, 1, 2L);

            assertEquals(List.of("unknown 1 2"), written);
            assertEquals("1", column(c, key, "reconcile_count"));
            assertEquals(null, column(c, key, "lease_until"), "the look-up's lease is given back");
            assertEquals(List.of("reconciled 1 unknown reconciler: look-up"), eventsWithAttempts(c, key));
        }
    }

    @Test
    void anAbsenceInsideTheSettleWindowWaitsForItsEndWithItsEvent() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 1, 2, false);

            List<String> written = lookedUp(c, OperationWrites.AWAIT_SETTLE_LOGGED, key, null, now(), "acme", key, 1, 2L);

            assertEquals(List.of("unknown 1 2"), written);
            assertEquals(column(c, key, "settle_after"), column(c, key, "next_check_at"), "looked up again when the window ends");
            assertEquals(List.of("reconciled 1 unknown reconciler: look-up"), eventsWithAttempts(c, key));
        }
    }

    @Test
    void aClaimLeasesEveryRowWithItsEventsInOneStatementAndALapsedAttemptGetsItsSettleWindow() throws SQLException {
        try (Connection c = connection()) {
            String lapsed = unknown(c, 1, 4, false);
            exec(c, "UPDATE agent_operation_log SET status = 'started', settle_after = NULL WHERE operation_key = '" + lapsed + "'");
            String unknown = unknown(c, 2, 1, false);
            Timestamp window = Timestamp.from(Instant.now().plusSeconds(90).truncatedTo(java.time.temporal.ChronoUnit.MICROS));
            String claimed = "[{\"tenant\":\"acme\",\"operation_key\":\"" + lapsed + "\",\"lapsed\":true,\"settle_after\":\""
                    + window.toInstant() + "\"},{\"tenant\":\"acme\",\"operation_key\":\"" + unknown
                    + "\",\"lapsed\":false,\"settle_after\":null}]";
            String unknownWindow = column(c, unknown, "settle_after");

            Timestamp until = Timestamp.from(Instant.now().plusSeconds(30).truncatedTo(java.time.temporal.ChronoUnit.MICROS));
            List<String> leased = run(c, NumberedSql.of(OperationWrites.LOOKUP), claimed, until, now(), "reconciler", null);

            assertEquals(List.of("unknown 1 5", "unknown 2 2"), leased.stream().sorted().toList(), "the leased rows come back");
            assertEquals(until.toInstant(), instant(c, lapsed, "lease_until"));
            assertEquals(until.toInstant(), instant(c, unknown, "lease_until"));
            assertEquals("unknown", column(c, lapsed, "status"));
            assertEquals("5", column(c, lapsed, "lease_epoch"), "whoever held it before holds nothing now");
            assertEquals(window.toInstant(), instant(c, lapsed, "settle_after"), "the window the claim computed");
            assertEquals(unknownWindow, column(c, unknown, "settle_after"), "an unknown row keeps its settle window");
            assertEquals("2", column(c, unknown, "lease_epoch"));
            assertEquals(List.of("lease_expired 1 unknown reconciler: " + String.format(OperationWrites.LAPSED, 1),
                    "reconcile_started 1 unknown reconciler: " + OperationWrites.LOOKUP_LEASED), eventsWithAttempts(c, lapsed));
            assertEquals(List.of("reconcile_started 2 unknown reconciler: " + OperationWrites.LOOKUP_LEASED), eventsWithAttempts(c, unknown));
        }
    }

    @Test
    void theNextAttemptIsLeasedWithItsEventInOneStatementAndOnlyForTheAttemptAndEpochDecidedOn() throws SQLException {
        try (Connection c = connection()) {
            String key = unknown(c, 2, 3, false);
            exec(c, "UPDATE agent_operation_log SET status = 'failed_retryable', lease_until = NULL, next_check_at = now()"
                    + " WHERE operation_key = '" + key + "'");
            Timestamp until = Timestamp.from(Instant.now().plusSeconds(30).truncatedTo(java.time.temporal.ChronoUnit.MICROS));

            List<String> stale = run(c, NumberedSql.of(OperationWrites.NEXT_ATTEMPT), until, now(), "acme", key, 2, 2L, "agent-a", null);
            List<String> started = run(c, NumberedSql.of(OperationWrites.NEXT_ATTEMPT), until, now(), "acme", key, 2, 3L, "agent-a", null);

            assertEquals(List.of(), stale, "a holder of an older epoch leases nothing");
            assertEquals(List.of("started 3 4"), started, "the new attempt, under the next epoch");
            assertEquals(until.toInstant(), instant(c, key, "lease_until"));
            assertEquals(null, column(c, key, "next_check_at"));
            assertEquals(List.of("attempt_started 3 started agent-a: " + OperationWrites.ATTEMPT_LEASED), eventsWithAttempts(c, key));
        }
    }

    /**
     * A look-up's logged write ({@link OperationWrites.LookupLogged}) for attempt 1 by the reconciler, the update's own
     * parameters in order, then the events'; each returned row as "status attempt epoch".
     */
    private static List<String> lookedUp(Connection c, OperationWrites.LookupLogged logged, String key, String nextAttempt,
                                         Object... update) throws SQLException {
        Object[] values = java.util.Arrays.copyOf(update, logged.firstEventParameter() + 8);
        Object[] events = {"acme", key, now(), 1, "reconciler", "look-up", null, nextAttempt != null, nextAttempt};
        System.arraycopy(events, 0, values, logged.firstEventParameter() - 1, events.length);
        return run(c, logged.sql(), values);
    }

    /** Runs {@code sql} binding each ?N occurrence to {@code values[N - 1]}; each row as "status attempt epoch". */
    private static List<String> run(Connection c, NumberedSql sql, Object... values) throws SQLException {
        List<String> rows = new java.util.ArrayList<>();
        try (PreparedStatement statement = sql.prepare(c, values)) {
            try (ResultSet r = statement.executeQuery()) {
                while (r.next()) {
                    rows.add(r.getString("status") + " " + r.getInt("attempt_count") + " " + r.getLong("lease_epoch"));
                }
            }
        }
        return rows;
    }

    private static List<String> eventsWithAttempts(Connection c, String key) throws SQLException {
        List<String> events = new java.util.ArrayList<>();
        try (ResultSet rows = c.createStatement().executeQuery(
                "SELECT kind, attempt, status, actor, detail FROM operation_event WHERE operation_key = '" + key + "' ORDER BY id")) {
            while (rows.next()) {
                events.add(rows.getString(1) + " " + rows.getInt(2) + " " + rows.getString(3) + " " + rows.getString(4)
                        + ": " + rows.getString(5));
            }
        }
        return events;
    }

    private static Instant instant(Connection c, String key, String column) throws SQLException {
        try (ResultSet r = c.createStatement().executeQuery(
                "SELECT " + column + " FROM agent_operation_log WHERE operation_key = '" + key + "'")) {
            r.next();
            return r.getTimestamp(1).toInstant();
        }
    }

    private static int escalate(Connection c, String key) throws SQLException {
        return update(c, OperationWrites.ESCALATE, now(), now(), "acme", key);
    }

    private static int extendSettle(Connection c, String key, int attempt, Instant until) throws SQLException {
        return update(c, OperationWrites.EXTEND_SETTLE, Timestamp.from(until), now(), "acme", key, attempt);
    }

    /** An unknown row at {@code attempt} whose look-up lease is epoch {@code epoch} (live for 30 s). */
    private static String unknown(Connection c, int attempt, long epoch, boolean escalated) throws SQLException {
        String key = "test:invoice.create:" + UUID.randomUUID() + ":v1";
        exec(c, "INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload, status,"
                + " target_system, attempt_count, lease_until, lease_epoch, settle_after, escalated_at) VALUES ('acme', '" + key
                + "', 'invoice.create', '" + HASH + "', '{}', 'unknown', '1c', " + attempt + ", now() + interval '30 seconds', "
                + epoch + ", now() - interval '1 second', " + (escalated ? "now()" : "NULL") + ")");
        return key;
    }

    private static int settleByOwner(Connection c, String key, int attempt, long epoch, String to) throws SQLException {
        return settle(c, OperationWrites.SETTLE_ATTEMPT, key, attempt, epoch, to);
    }

    private static int settleByReconciler(Connection c, String key, int attempt, long epoch, String to) throws SQLException {
        return settle(c, OperationWrites.SETTLE_LOOKUP, key, attempt, epoch, to);
    }

    private static int settle(Connection c, String sql, String key, int attempt, long epoch, String to) throws SQLException {
        boolean terminal = to.equals("succeeded") || to.equals("failed_final");
        Object[] values = {to, to.equals("succeeded") ? "ref-1" : null, null, to.equals("succeeded") ? null : "x", null,
                terminal ? now() : null, now(), null, "acme", key, attempt, epoch};
        if (!sql.equals(OperationWrites.SETTLE_ATTEMPT)) {
            return update(c, sql, values);
        }
        Object[] withLateSuccess = java.util.Arrays.copyOf(values, 13);
        withLateSuccess[12] = AttemptOutcomes.settlesAfterLeaseLapsed(new Transition(OperationStatus.fromDb(to), null, null, null, null));
        return update(c, sql, withLateSuccess);
    }

    /**
     * The attempt's owner settling the row as succeeded through the recorder's own call
     * ({@link FencedWrites#settleAttempt}, {@link FencedWrites#SETTLE_ATTEMPT_LOGGED}), for the attempt and epoch
     * the row holds; the statuses of the rows it returned.
     */
    private static List<String> settleLogged(Connection c, String key) throws SQLException {
        OperationView attempt = OperationRows.byKey(c, "acme", key).orElseThrow();
        Transition to = new Transition(OperationStatus.SUCCEEDED, "ref-1", null, null, null);
        return FencedWrites.settleAttempt(c, attempt, to, Instant.now(), java.time.Duration.ofSeconds(30), "agent-a",
                new Outcome.Succeeded("ref-1", null, 201), 12, "target object ref-1")
                .map(row -> row.status().dbName()).stream().toList();
    }

    private static List<String> events(Connection c, String key) throws SQLException {
        List<String> kinds = new java.util.ArrayList<>();
        try (java.sql.ResultSet rows = c.createStatement().executeQuery(
                "SELECT kind FROM operation_event WHERE operation_key = '" + key + "' ORDER BY id")) {
            while (rows.next()) {
                kinds.add(rows.getString(1));
            }
        }
        return kinds;
    }

    private static int retry(Connection c, String key, int attempt, long epoch) throws SQLException {
        return update(c, OperationWrites.RETRY, Timestamp.from(Instant.now().plusSeconds(30)), now(), "acme", key, attempt, epoch);
    }

    private static int postpone(Connection c, String key, int attempt, long epoch) throws SQLException {
        return update(c, OperationWrites.POSTPONE, now(), 300, false, now(), "lookup_unavailable", now(), "acme", key, attempt, epoch);
    }

    private static int awaitSettle(Connection c, String key, int attempt, long epoch) throws SQLException {
        return update(c, OperationWrites.AWAIT_SETTLE, now(), "acme", key, attempt, epoch);
    }

    /** Runs one of the recorder's statements with its parameters in order. */
    private static int update(Connection c, String sql, Object... values) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(JournalDatabase.jdbc(sql))) {
            for (int i = 0; i < values.length; i++) {
                update.setObject(i + 1, values[i]);
            }
            return update.executeUpdate();
        }
    }

    private static Timestamp now() {
        return Timestamp.from(Instant.now());
    }

    private static String column(Connection c, String key, String column) throws SQLException {
        try (ResultSet row = c.createStatement().executeQuery(
                "SELECT " + column + " FROM agent_operation_log WHERE operation_key = '" + key + "'")) {
            row.next();
            return row.getString(1);
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        c.createStatement().execute(sql);
    }

    private static Connection connection() throws SQLException {
        return database.connection();
    }
}
