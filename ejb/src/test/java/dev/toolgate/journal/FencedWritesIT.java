package dev.toolgate.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;

/**
 * Every automatic write to an operation is fenced by the lease it holds (attempt, lease epoch, status)
 * and never touches an escalated operation: the recorder's own SQL, run on real PostgreSQL against
 * rows in the states that racing reconcilers and late owners meet.
 */
class FencedWritesIT {

    private static final String HASH = "b".repeat(64);
    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void migrate() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        Flyway.configure().dataSource(postgres.getPostgresDatabase()).locations("classpath:db/migration").load().migrate();
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
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

    private static int escalate(Connection c, String key) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(jdbc(FencedWrites.ESCALATE))) {
            update.setTimestamp(1, Timestamp.from(Instant.now()));
            update.setTimestamp(2, Timestamp.from(Instant.now()));
            update.setString(3, "acme");
            update.setString(4, key);
            return update.executeUpdate();
        }
    }

    private static int extendSettle(Connection c, String key, int attempt, Instant until) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(jdbc(FencedWrites.EXTEND_SETTLE))) {
            update.setTimestamp(1, Timestamp.from(until));
            update.setTimestamp(2, Timestamp.from(Instant.now()));
            update.setString(3, "acme");
            update.setString(4, key);
            update.setInt(5, attempt);
            return update.executeUpdate();
        }
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
        return settle(c, FencedWrites.SETTLE_ATTEMPT, key, attempt, epoch, to);
    }

    private static int settleByReconciler(Connection c, String key, int attempt, long epoch, String to) throws SQLException {
        return settle(c, FencedWrites.SETTLE_LOOKUP, key, attempt, epoch, to);
    }

    private static int settle(Connection c, String sql, String key, int attempt, long epoch, String to) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(jdbc(sql))) {
            Timestamp now = Timestamp.from(Instant.now());
            boolean terminal = to.equals("succeeded") || to.equals("failed_final");
            update.setString(1, to);
            update.setString(2, to.equals("succeeded") ? "ref-1" : null);
            update.setString(3, null);
            update.setString(4, to.equals("succeeded") ? null : "x");
            update.setTimestamp(5, null);
            update.setTimestamp(6, terminal ? now : null);
            update.setTimestamp(7, now);
            update.setTimestamp(8, null);
            update.setString(9, "acme");
            update.setString(10, key);
            update.setInt(11, attempt);
            update.setLong(12, epoch);
            if (sql.equals(FencedWrites.SETTLE_ATTEMPT)) {
                update.setBoolean(13, AttemptOutcomes.settlesAfterLeaseLapsed(new Transition(OperationStatus.fromDb(to), null, null, null, null)));
            }
            return update.executeUpdate();
        }
    }

    private static int retry(Connection c, String key, int attempt, long epoch) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(jdbc(FencedWrites.RETRY))) {
            update.setTimestamp(1, Timestamp.from(Instant.now().plusSeconds(30)));
            update.setTimestamp(2, Timestamp.from(Instant.now()));
            update.setString(3, "acme");
            update.setString(4, key);
            update.setInt(5, attempt);
            update.setLong(6, epoch);
            return update.executeUpdate();
        }
    }

    private static int postpone(Connection c, String key, int attempt, long epoch) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(jdbc(FencedWrites.POSTPONE))) {
            Timestamp now = Timestamp.from(Instant.now());
            update.setTimestamp(1, now);
            update.setInt(2, 300);
            update.setBoolean(3, false);
            update.setTimestamp(4, now);
            update.setString(5, "lookup_unavailable");
            update.setTimestamp(6, now);
            update.setString(7, "acme");
            update.setString(8, key);
            update.setInt(9, attempt);
            update.setLong(10, epoch);
            return update.executeUpdate();
        }
    }

    private static int awaitSettle(Connection c, String key, int attempt, long epoch) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(jdbc(FencedWrites.AWAIT_SETTLE))) {
            update.setTimestamp(1, Timestamp.from(Instant.now()));
            update.setString(2, "acme");
            update.setString(3, key);
            update.setInt(4, attempt);
            update.setLong(5, epoch);
            return update.executeUpdate();
        }
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

    /** The JPA statements number their parameters (?1, ?2 …) in order; JDBC wants plain ?. */
    private static String jdbc(String jpaSql) {
        return jpaSql.replaceAll("\\?\\d+", "?");
    }

    private static Connection connection() throws SQLException {
        return postgres.getPostgresDatabase().getConnection();
    }
}
