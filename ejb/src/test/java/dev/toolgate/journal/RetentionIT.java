package dev.toolgate.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.process.ProcessRetention;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The purge's own SQL on real PostgreSQL: a finished operation past retention is forgotten — unless it is a
 * step of a process that has not finished, whose record is what keeps the process from sending the step again;
 * a finished process past retention goes with its stages ({@code ProcessRetention}'s SQL), one that needs attention stays.
 */
class RetentionIT {

    private static final Timestamp CUTOFF = Timestamp.from(Instant.now().minusSeconds(3600));

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();

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

        }
    }

    @Test
    void aFinishedStepUnderALongerKeyIsNoStepOfTheUnfinishedProcessWhoseKeyItExtends() throws SQLException {
        String running = "test:process:" + UUID.randomUUID();
        try (Connection c = database.connection()) {
            process(c, running, "running");
            process(c, running + "/q", "completed"); // a process of its own, finished
            operation(c, running + "/invoice");
            operation(c, running + "/invoice/compensation");
            operation(c, running + "/q/invoice");

            purge(c, Retention.PURGE);
            assertEquals(1, count(c, "agent_operation_log", running + "/invoice"), "the running process's step stays");
            assertEquals(1, count(c, "agent_operation_log", running + "/invoice/compensation"), "and its compensation");
            assertEquals(0, count(c, "agent_operation_log", running + "/q/invoice"), "the finished process's step is forgotten");
        }
    }

    @Test
    void findsOnlyFinishedProcessesPastRetentionAndDeletesEachWithItsStages() throws SQLException {
        String completed = "test:process:" + UUID.randomUUID();
        String running = "test:process:" + UUID.randomUUID();
        String attention = "test:process:" + UUID.randomUUID();
        try (Connection c = database.connection()) {
            process(c, completed, "completed");
            process(c, running, "running");
            process(c, attention, "needs_attention");
            operation(c, completed + "/invoice");
            operation(c, completed + "/invoice/compensation");
            operation(c, completed + "x/invoice");

            List<String> due = new ArrayList<>();
            try (PreparedStatement q = c.prepareStatement(JournalDatabase.jdbc(ProcessRetention.DUE))) {
                q.setTimestamp(1, CUTOFF);
                q.setInt(2, 1000);
                try (ResultSet r = q.executeQuery()) {
                    while (r.next()) {
                        due.add(r.getString(2));
                    }
                }
            }
            assertTrue(due.contains(completed), "finished past retention");
            assertFalse(due.contains(running) || due.contains(attention), "unfinished, or waiting for a person");

            // the shape fallback, for a declaration that cannot be read (its declaration here is '{}')
            try (PreparedStatement d = JournalDatabase.prepared(c, ProcessRetention.DELETE_STAGES_BY_KEY, CUTOFF, "acme", completed)) {
                assertEquals(2, d.executeUpdate(), "its step and the step's compensation");
            }
            try (PreparedStatement d = c.prepareStatement(JournalDatabase.jdbc(ProcessRetention.DELETE_PROCESS))) {
                d.setString(1, "acme");
                d.setString(2, completed);
                assertEquals(1, d.executeUpdate());
            }
            assertEquals(0, count(c, "process_run", completed));
            assertEquals(1, count(c, "agent_operation_log", completed + "x/invoice"), "another process's key is not a stage of it");
        }
    }

    @Test
    void keepsAProcessThatNeedsAttention() throws SQLException {
        String key = "test:process:" + UUID.randomUUID();
        try (Connection c = database.connection()) {
            process(c, key, "needs_attention");
            operation(c, key + "/invoice");
            purge(c, Retention.PURGE);
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
                + " created_at, updated_at, completed_at, declaration) VALUES ('acme', '" + key + "', 'order.fulfil', '" + "c".repeat(64)
                + "', '{}', '" + status + "', 'agent-a', 'test', now() - interval '3 days', now() - interval '2 days', "
                + (status.equals("completed") ? "now() - interval '2 days'" : "NULL") + ", '{}')");
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
