package dev.toolgate.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.OperationRows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A later release's migration adds a column to the operations table while this release's instances keep serving
 * (docs/operations.md, Upgrading). Their pooled connections hold the journal's statements prepared on the server, and
 * PostgreSQL refuses to run a prepared statement whose result's shape changed ("cached plan must not change result
 * type", SQLState 0A000): a statement returning {@code *} of the table breaks once on every connection that prepared it
 * — an agent's 500, a failed reconcile run — until the pool has replaced them all. RollingUpgradeIT met it when the
 * first release to add a column started beside the one before it. So every statement that returns operation rows names
 * its columns: here each one is prepared on the server, the table gains a column, and each runs again on the same
 * connection.
 */
class AddedColumnIT {

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();

    /** The statements whose results are operation rows, by name; every other parameter bound as a null. */
    private static Map<String, NumberedSql> statements() {
        Map<String, NumberedSql> statements = new LinkedHashMap<>();
        statements.put("OperationWrites.READ_OR_CAPTURE", NumberedSql.of(OperationWrites.READ_OR_CAPTURE));
        statements.put("OperationRows.BY_KEY", NumberedSql.of(OperationRows.BY_KEY.replace("tenant = ?", "tenant = ?1")
                .replace("operation_key = ?", "operation_key = ?2")));
        statements.put("OperationWrites.SETTLE_ATTEMPT_LOGGED", NumberedSql.of(OperationWrites.SETTLE_ATTEMPT_LOGGED));
        statements.put("OperationWrites.SETTLE_LOOKUP_LOGGED", OperationWrites.SETTLE_LOOKUP_LOGGED.sql());
        statements.put("OperationWrites.RETRY_LOGGED", OperationWrites.RETRY_LOGGED.sql());
        statements.put("OperationWrites.AWAIT_SETTLE_LOGGED", OperationWrites.AWAIT_SETTLE_LOGGED.sql());
        statements.put("OperationWrites.POSTPONE_LOGGED", OperationWrites.POSTPONE_LOGGED.sql());
        statements.put("OperationWrites.LOOKUP", NumberedSql.of(OperationWrites.LOOKUP));
        statements.put("OperationWrites.NEXT_ATTEMPT", NumberedSql.of(OperationWrites.NEXT_ATTEMPT));
        statements.put("OperationWrites.RENEW", NumberedSql.of(OperationWrites.RENEW));
        statements.put("OperationWrites.RESOLVE", NumberedSql.of(OperationWrites.RESOLVE));
        statements.put("OperationWrites.LAPSE", NumberedSql.of(OperationWrites.LAPSE));
        statements.put("OperationWrites.APPROVE", NumberedSql.of(OperationWrites.APPROVE));
        statements.put("DueOperations.DUE", NumberedSql.of(DueOperations.DUE));
        return statements;
    }

    @Test
    void everyStatementReturningOperationRowsRunsAsBeforeAfterALaterReleaseAddsAColumn() throws Exception {
        Map<String, String> before = new LinkedHashMap<>();
        Map<String, String> after = new LinkedHashMap<>();
        // each on a connection of its own: the driver, once PostgreSQL refused one of a connection's prepared
        // statements, prepares all of them again, so the first refusal would hide the rest
        for (Map.Entry<String, NumberedSql> statement : statements().entrySet()) {
            try (Connection c = database.connection()) {
                c.unwrap(PGConnection.class).setPrepareThreshold(1); // prepared on the server from its first run, as a pool's are soon
                c.setAutoCommit(false);
                run(c, statement.getKey(), statement.getValue());
                before.put(statement.getKey(), run(c, statement.getKey(), statement.getValue()));
                assertTrue(prepared(c) >= 1, statement.getKey() + " is prepared on the server");
                addColumn("ADD COLUMN added_by_a_later_release text");
                try {
                    after.put(statement.getKey(), run(c, statement.getKey(), statement.getValue()));
                } finally {
                    addColumn("DROP COLUMN added_by_a_later_release");
                }
            }
        }
        assertEquals(before, after, "each statement, run on a connection that prepared it, after a later release added a column");
    }

    private static void addColumn(String change) throws SQLException {
        try (Connection other = database.connection(); Statement ddl = other.createStatement()) {
            ddl.execute("ALTER TABLE agent_operation_log " + change);
        }
    }

    private static int prepared(Connection c) throws SQLException {
        try (Statement query = c.createStatement();
             ResultSet count = query.executeQuery("SELECT count(*) FROM pg_prepared_statements WHERE NOT from_sql")) {
            count.next();
            return count.getInt(1);
        } finally {
            c.rollback();
        }
    }

    /**
     * Runs the statement in a transaction rolled back after it (its nulls may well break a constraint: what matters is
     * that it runs as it ran before): how it ended — {@code ok}, or the error's SQLState.
     */
    private static String run(Connection c, String name, NumberedSql sql) throws SQLException {
        try (PreparedStatement statement = sql.prepare(c, values(name, sql.parameters()))) {
            statement.execute();
            return "ok";
        } catch (SQLException e) {
            return e.getSQLState() + (e.getSQLState().equals("0A000") ? " " + e.getMessage() : "");
        } finally {
            c.rollback();
        }
    }

    /** Nulls, but for the capture, which inserts a whole row (its columns are NOT NULL). */
    private static Object[] values(String name, int parameters) {
        if (!name.endsWith("READ_OR_CAPTURE")) {
            return new Object[parameters];
        }
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        Object[] row = {"acme", "test:invoice.create:added-" + UUID.randomUUID() + ":v1", "agent-a", "invoice.create", "a".repeat(64),
                "{\"order_id\":\"o\"}", "started", "1c", 1, now.plusSeconds(30), now, now, "", false, null, null, "test", "attempt 1 leased"};
        assertEquals(parameters, row.length, name + "'s parameters");
        return row;
    }
}
