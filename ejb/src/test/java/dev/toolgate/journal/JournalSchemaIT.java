package dev.toolgate.journal;

import dev.toolgate.lifecycle.OperationWrites;
import dev.toolgate.lifecycle.FencedWrites;
import dev.toolgate.lifecycle.FirstCapture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** The migrated schema and the journal's own SQL, on real PostgreSQL. */
class JournalSchemaIT {

    private static final String HASH = "a".repeat(64);

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();

    @Test
    void migratingAgainAppliesNothing() {
        assertEquals(0, Flyway.configure().dataSource(database.dataSource()).load().migrate().migrationsExecuted);
    }

    /** docs/operations.md, "The journal's housekeeping": the reconcile claim's indexes are not left to PostgreSQL's defaults. */
    @Test
    void theOperationLogIsVacuumedAndAnalyzedAfterTwoPercentOfItChanged() throws SQLException {
        try (Connection c = connection(); ResultSet r = c.createStatement().executeQuery(
                "SELECT array_to_string(reloptions, ',') FROM pg_class WHERE relname = 'agent_operation_log'")) {
            assertTrue(r.next());
            assertEquals("autovacuum_vacuum_scale_factor=0.02,autovacuum_vacuum_threshold=1000,"
                    + "autovacuum_analyze_scale_factor=0.02,autovacuum_analyze_threshold=1000", r.getString(1));
        }
    }

    @Test
    void firstInsertOwnsTheKeyAndTheSecondFindsIt() throws SQLException {
        String key = key();
        try (Connection c = connection()) {
            assertTrue(capture(c, key), "first insert returns the key");
            assertTrue(!capture(c, key), "the second finds the row and captures nothing");
        }
    }

    @Test
    void exactlyOneOfManyConcurrentInsertsOwnsTheKey() throws Exception {
        String key = key();
        ExecutorService pool = Executors.newFixedThreadPool(20);
        try {
            List<Callable<Boolean>> racers = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                racers.add(() -> {
                    try (Connection c = connection()) {
                        return capture(c, key);
                    }
                });
            }
            int owners = 0;
            for (Future<Boolean> won : pool.invokeAll(racers)) {
                owners += won.get() ? 1 : 0;
            }
            assertEquals(1, owners);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void fencedOutcomeUpdateRefusesAnotherAttempt() throws SQLException {
        String key = key();
        try (Connection c = connection()) {
            capture(c, key);
            assertEquals(0, settle(c, key, 2), "attempt 2 does not own the row");
            assertEquals(1, settle(c, key, 1), "attempt 1 does");
            assertEquals(0, settle(c, key, 1), "and only once: the row is no longer started");
        }
    }

    @Test
    void theCaptureWritesItsEventOnlyWhenItsInsertWon() throws SQLException {
        String key = key();
        try (Connection c = connection()) {
            capture(c, key);
            capture(c, key);
            try (ResultSet events = c.createStatement().executeQuery("SELECT count(*), min(kind), min(actor) FROM operation_event"
                    + " WHERE operation_key = '" + key + "'")) {
                events.next();
                assertEquals(1, events.getInt(1), "the losing insert wrote no event");
                assertEquals("captured", events.getString(2));
                assertEquals("agent-a", events.getString(3));
            }
        }
    }

    @Test
    void theSameKeyInTwoTenantsIsTwoOperations() throws SQLException {
        String key = key();
        try (Connection c = connection()) {
            assertTrue(capture(c, key));
            c.createStatement().execute("INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash,"
                    + " payload, status, target_system) VALUES ('globex', '" + key + "', 'invoice.create', '" + HASH
                    + "', '{}', 'started', '1c')");
            try (ResultSet count = c.createStatement().executeQuery(
                    "SELECT count(*) FROM agent_operation_log WHERE operation_key = '" + key + "'")) {
                count.next();
                assertEquals(2, count.getInt(1));
            }
        }
    }

    @Test
    void eventsAreAppendOnly() throws SQLException {
        String key = key();
        try (Connection c = connection()) {
            capture(c, key);
            c.createStatement().execute("INSERT INTO operation_event (tenant, operation_key, kind) VALUES ('acme', '" + key + "', 'captured')");
            SQLException e = assertThrows(SQLException.class,
                    () -> c.createStatement().execute("UPDATE operation_event SET kind = 'x' WHERE operation_key = '" + key + "'"));
            assertTrue(e.getMessage().contains("append-only"), e.getMessage());
        }
    }

    @Test
    void refusesKeysWithWhitespaceControlOrNonAsciiCharacters() throws SQLException {
        try (Connection c = connection()) {
            for (String bad : List.of("has space", "tab\there", "ключ", "", "x".repeat(256))) {
                assertThrows(SQLException.class, () -> capture(c, bad), bad);
            }
        }
    }

    @Test
    void refusesSuccessWithoutTargetObject() throws SQLException {
        String key = key();
        try (Connection c = connection()) {
            capture(c, key);
            assertThrows(SQLException.class, () -> c.createStatement().execute(
                    "UPDATE agent_operation_log SET status = 'succeeded', completed_at = now() WHERE operation_key = '" + key + "'"));
        }
    }

    /** The gateway's capture ({@code OperationWrites.READ_OR_CAPTURE}): true when this call's insert won. */
    private static boolean capture(Connection c, String key) throws SQLException {
        Timestamp now = Timestamp.from(Instant.now());
        try (PreparedStatement insert = JournalDatabase.prepared(c, OperationWrites.READ_OR_CAPTURE, "acme", key, "agent-a", "invoice.create",
                HASH, "{\"order_id\":\"o\"}", "started", "1c", 1, Timestamp.from(Instant.now().plusSeconds(30)), now, now, "", false,
                "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", "test", "attempt 1 leased");
             ResultSet returned = insert.executeQuery()) {
            returned.next();
            return returned.getLong("captured_rows") == 1;
        }
    }

    private static int settle(Connection c, String key, int attempt) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(JournalDatabase.jdbc(OperationWrites.SETTLE_ATTEMPT))) {
            Timestamp now = Timestamp.from(Instant.now());
            update.setString(1, "succeeded");
            update.setString(2, "ref-1");
            update.setString(3, "{\"number\":\"0000-000001\"}");
            update.setString(4, null);
            update.setTimestamp(5, null);
            update.setTimestamp(6, now);
            update.setTimestamp(7, now);
            update.setTimestamp(8, null);
            update.setString(9, "acme");
            update.setString(10, key);
            update.setInt(11, attempt);
            update.setLong(12, 1);
            update.setBoolean(13, false);
            return update.executeUpdate();
        }
    }

    private static Connection connection() throws SQLException {
        return database.connection();
    }

    private static String key() {
        return "test:invoice.create:" + UUID.randomUUID() + ":v1";
    }
}
