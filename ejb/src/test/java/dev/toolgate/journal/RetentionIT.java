package dev.toolgate.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;

/**
 * The purge's own SQL on real PostgreSQL: a finished operation past retention is forgotten — unless it is a
 * step of a process that has not finished, whose record is what keeps the process from sending the step again;
 * a finished process past retention goes too, one that needs attention stays.
 */
class RetentionIT {

    private static final Timestamp CUTOFF = Timestamp.from(Instant.now().minusSeconds(3600));
    private static JournalDatabase database;

    @BeforeAll
    static void migrate() throws Exception {
        database = JournalDatabase.migrated();
    }

    @AfterAll
    static void stop() throws Exception {
        database.close();
    }

    @Test
    void keepsTheFinishedStepsOfAnUnfinishedProcessAndForgetsTheRest() throws SQLException {
        String running = "test:process:" + UUID.randomUUID();
        String completed = "test:process:" + UUID.randomUUID();
        try (Connection c = database.connection()) {
            process(c, running, "running");
            process(c, completed, "completed");
            operation(c, running + "/invoice");
            operation(c, completed + "/invoice");
            operation(c, "test:invoice.create:" + UUID.randomUUID());
            operation(c, running + "x/invoice"); // a key that merely starts like the process key is no step of it

            assertEquals(3, purge(c, Retention.PURGE));
            assertEquals(1, count(c, "agent_operation_log", running + "/invoice"), "the running process's step stays");
            assertEquals(0, count(c, "agent_operation_log", completed + "/invoice"));

            assertEquals(1, purge(c, Retention.PURGE_PROCESSES), "the completed process; the running one stays");
            assertEquals(1, count(c, "process_run", running));
            assertEquals(0, count(c, "process_run", completed));
        }
    }

    @Test
    void keepsAProcessThatNeedsAttention() throws SQLException {
        String key = "test:process:" + UUID.randomUUID();
        try (Connection c = database.connection()) {
            process(c, key, "needs_attention");
            operation(c, key + "/invoice");
            purge(c, Retention.PURGE);
            purge(c, Retention.PURGE_PROCESSES);
            assertEquals(1, count(c, "process_run", key), "a person has not settled it yet");
            assertEquals(1, count(c, "agent_operation_log", key + "/invoice"), "nor its steps' records");
        }
    }

    private static int purge(Connection c, String sql) throws SQLException {
        try (PreparedStatement purge = c.prepareStatement(JournalDatabase.jdbc(sql))) {
            purge.setTimestamp(1, CUTOFF);
            purge.setInt(2, 1000);
            return purge.executeUpdate();
        }
    }

    private static void process(Connection c, String key, String status) throws SQLException {
        exec(c, "INSERT INTO process_run (tenant, process_key, process_type, request_hash, payload, status, agent_id, detail,"
                + " created_at, updated_at, completed_at) VALUES ('acme', '" + key + "', 'order.fulfil', '" + "c".repeat(64)
                + "', '{}', '" + status + "', 'agent-a', 'test', now() - interval '3 days', now() - interval '2 days', "
                + (status.equals("running") ? "NULL" : "now() - interval '2 days'") + ")");
    }

    private static void operation(Connection c, String key) throws SQLException {
        exec(c, "INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload, status, target_system,"
                + " attempt_count, created_at, updated_at, completed_at, target_object_id) VALUES ('acme', '" + key + "', 'invoice.create', '" + "b".repeat(64)
                + "', '{}', 'succeeded', '1c', 1, now() - interval '3 days', now() - interval '2 days', now() - interval '2 days', 'doc-1')");
    }

    private static long count(Connection c, String table, String key) throws SQLException {
        String column = table.equals("process_run") ? "process_key" : "operation_key";
        try (PreparedStatement q = c.prepareStatement("SELECT count(*) FROM " + table + " WHERE " + column + " = ?")) {
            q.setString(1, key);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
