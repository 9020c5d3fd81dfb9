package dev.toolgate.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.journal.JournalSettings;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

/**
 * The process purge ({@link ProcessRetention#purge}) through the application's persistence unit on real PostgreSQL:
 * a finished process past retention goes, and with it only what the operations' purge would forget too — its own
 * stages' finished rows. An operation under its key that is not finished (the agent's retry would send it again),
 * another process's steps under a longer key, and a key that is no stage's are never taken with it, whether its
 * declaration can be read or not.
 */
class ProcessRetentionIT {

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();
    private static EntityManagerFactory unit;
    private static String prepay;

    @BeforeAll
    static void migrate() throws Exception {
        unit = database.persistenceUnit();
        try (InputStream in = ProcessCatalog.class.getClassLoader().getResourceAsStream(ProcessCatalog.EXAMPLES)) {
            prepay = ProcessDeclarations.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)).get(1).declaration().toString();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        unit.close();
    }

    @Test
    void aProcessWhoseDeclarationCannotBeReadTakesOnlyItsOwnFinishedStages() throws SQLException {
        String p = "test:process:" + UUID.randomUUID();
        try (Connection c = database.connection()) {
            process(c, p, "completed", "{}");
            process(c, p + "/q", "running", "{}"); // a process of its own, whose key happens to extend p's
            operation(c, p + "/invoice", "succeeded");
            operation(c, p + "/invoice/compensation", "succeeded");
            operation(c, p + "/x", "unknown");            // an agent's own operation, outcome unknown: its retry would send it again
            operation(c, p + "/q/invoice", "succeeded");  // p/q's step: its driver would send it again
            operation(c, p + "/q/invoice/compensation", "succeeded");
            operation(c, p + "/compensation", "succeeded"); // no step is named so: no stage of p
            operation(c, p + "/Invoice", "succeeded");      // nor so

            purge();

            assertEquals(0, count(c, "process_run", p), "the finished process is forgotten");
            assertEquals(0, count(c, "agent_operation_log", p + "/invoice"), "with its finished stages");
            assertEquals(0, count(c, "agent_operation_log", p + "/invoice/compensation"));
            assertEquals(1, count(c, "agent_operation_log", p + "/x"), "an unfinished operation is nobody's to forget");
            assertEquals(1, count(c, "agent_operation_log", p + "/q/invoice"), "another process's step stays");
            assertEquals(1, count(c, "agent_operation_log", p + "/q/invoice/compensation"), "and its compensation");
            assertEquals(1, count(c, "process_run", p + "/q"));
            assertEquals(1, count(c, "agent_operation_log", p + "/compensation"), "the key boundary is a step's name, exactly");
            assertEquals(1, count(c, "agent_operation_log", p + "/Invoice"));
        }
    }

    @Test
    void anOperationUnderADeclaredStepKeyThatIsNotFinishedStays() throws SQLException {
        String p = "test:process:" + UUID.randomUUID();
        try (Connection c = database.connection()) {
            process(c, p, "failed", prepay);
            operation(c, p + "/payment", "succeeded");
            operation(c, p + "/invoice", "unknown"); // another request under the step's key (the process stopped: "names another request")

            purge();

            assertEquals(0, count(c, "process_run", p));
            assertEquals(0, count(c, "agent_operation_log", p + "/payment"));
            assertEquals(1, count(c, "agent_operation_log", p + "/invoice"), "unfinished: still someone's business");
        }
    }

    @Test
    void aProcessKeysUnderscoreAndPercentAreCharactersNotWildcards() throws SQLException {
        String id = UUID.randomUUID().toString();
        String p = "test:process_" + id + "%";
        try (Connection c = database.connection()) {
            process(c, p, "completed", "{}");
            operation(c, p + "/invoice", "succeeded");
            operation(c, "test:processX" + id + "X/invoice", "succeeded");
            operation(c, "test:process_" + id + "%more/invoice", "succeeded");

            purge();

            assertEquals(0, count(c, "agent_operation_log", p + "/invoice"));
            assertEquals(1, count(c, "agent_operation_log", "test:processX" + id + "X/invoice"));
            assertEquals(1, count(c, "agent_operation_log", "test:process_" + id + "%more/invoice"));
        }
    }

    private static void purge() {
        ProcessRetention retention = new ProcessRetention();
        retention.settings = new JournalSettings() {
            @Override
            public Duration retention() {
                return Duration.ofDays(1);
            }
        };
        JournalDatabase.inTransaction(unit, em -> {
            retention.em = em;
            return retention.purge(1000);
        });
    }

    private static void process(Connection c, String key, String status, String declaration) throws SQLException {
        boolean finished = status.equals("completed") || status.equals("failed") || status.equals("compensated");
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO process_run (tenant, process_key, process_type, request_hash,"
                + " payload, status, agent_id, detail, created_at, updated_at, completed_at, declaration) VALUES ('acme', ?, 'order.prepay', ?,"
                + " '{}', ?, 'agent-a', 'test', now() - interval '3 days', now() - interval '2 days', "
                + (finished ? "now() - interval '2 days'" : "NULL") + ", CAST(? AS jsonb))")) {
            insert.setString(1, key);
            insert.setString(2, "c".repeat(64));
            insert.setString(3, status);
            insert.setString(4, declaration);
            insert.executeUpdate();
        }
    }

    private static void operation(Connection c, String key, String status) throws SQLException {
        boolean finished = status.equals("succeeded") || status.equals("failed_final");
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO agent_operation_log (tenant, operation_key, operation_type,"
                + " request_hash, payload, status, target_system, attempt_count, created_at, updated_at, completed_at, target_object_id)"
                + " VALUES ('acme', ?, 'invoice.create', ?, '{}', ?, '1c', 1, now() - interval '3 days', now() - interval '2 days', "
                + (finished ? "now() - interval '2 days'" : "NULL") + ", ?)")) {
            insert.setString(1, key);
            insert.setString(2, "b".repeat(64));
            insert.setString(3, status);
            insert.setString(4, status.equals("succeeded") ? "doc-1" : null);
            insert.executeUpdate();
        }
    }

    private static long count(Connection c, String table, String key) throws SQLException {
        String column = table.equals("process_run") ? "process_key" : "operation_key";
        try (PreparedStatement q = c.prepareStatement("SELECT count(*) FROM " + table + " WHERE tenant = 'acme' AND " + column + " = ?")) {
            q.setString(1, key);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
