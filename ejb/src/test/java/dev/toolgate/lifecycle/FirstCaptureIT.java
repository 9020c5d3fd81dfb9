package dev.toolgate.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The first statement of a call with a key ({@link FirstCapture#READ_OR_CAPTURE}) on real PostgreSQL: a new key is
 * captured with its event; a known key is read and nothing is written — not even a transaction id taken; of two
 * callers racing with a new key exactly one captures it and the other sees neither a row nor a capture.
 */
class FirstCaptureIT {

    private static final NumberedSql READ_OR_CAPTURE = NumberedSql.of(OperationWrites.READ_OR_CAPTURE);
    private static final String HASH = "c".repeat(64);

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();

    /** captured_rows, and the row the statement read (null: none). */
    private record Looked(long captured, OperationView row) {
    }

    @Test
    void aNewKeyIsCapturedWithItsEventByTheOneStatement() throws SQLException {
        String key = key();
        try (Connection c = database.connection()) {
            Looked looked = look(c, key);

            assertEquals(1, looked.captured());
            assertNull(looked.row(), "no row stood before");
            assertEquals(List.of("captured"), events(c, key));
            assertEquals("started", status(c, key));
        }
    }

    @Test
    void aKnownKeyIsReadAsItStandsAndNothingIsWritten() throws SQLException {
        String key = key();
        try (Connection c = database.connection()) {
            look(c, key);
            c.createStatement().execute("UPDATE agent_operation_log SET status = 'succeeded', target_object_id = 'doc-1',"
                    + " completed_at = now() WHERE operation_key = '" + key + "'");
            c.setAutoCommit(false);

            Looked again = look(c, key);
            String transactionId;
            try (ResultSet id = c.createStatement().executeQuery("SELECT txid_current_if_assigned()")) {
                id.next();
                transactionId = id.getString(1);
            }
            c.rollback();

            assertEquals(0, again.captured());
            assertEquals("succeeded", again.row().status().dbName());
            assertEquals("doc-1", again.row().targetObjectId());
            assertEquals(HASH, again.row().requestHash());
            assertNull(transactionId, "no transaction id taken: the statement wrote nothing");
            assertEquals(List.of("captured"), events(c, key));
        }
    }

    @Test
    void ofTwoCallersRacingWithANewKeyOneCapturesAndTheOtherSeesNeitherRowNorCapture() throws Exception {
        String key = key();
        try (Connection first = database.connection(); Connection second = database.connection()) {
            first.setAutoCommit(false);
            assertEquals(1, look(first, key).captured()); // not yet committed: the second waits on the key
            CompletableFuture<Looked> racing = CompletableFuture.supplyAsync(() -> {
                try {
                    return look(second, key);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(300);
            first.commit();

            Looked lost = racing.get(30, TimeUnit.SECONDS);
            assertEquals(0, lost.captured());
            assertNull(lost.row(), "its snapshot predates the winner's commit: decided under the lock next");
            assertEquals(List.of("captured"), events(first, key), "one row, one event");
        }
    }

    private static Looked look(Connection c, String key) throws SQLException {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        Object[] values = {"acme", key, "agent-a", "invoice.create", HASH, "{\"order_id\":\"o\"}", "started", "1c", 1,
                now.plusSeconds(30), now, now, "", false, null, null, "test", "attempt 1 leased"};
        try (PreparedStatement statement = READ_OR_CAPTURE.prepare(c, values); ResultSet row = statement.executeQuery()) {
            row.next();
            return new Looked(row.getLong("captured_rows"), OperationRows.present(row).orElse(null));
        }
    }

    private static String key() {
        return "test:invoice.create:first-" + UUID.randomUUID() + ":v1";
    }

    private static List<String> events(Connection c, String key) throws SQLException {
        List<String> kinds = new ArrayList<>();
        try (ResultSet rows = c.createStatement().executeQuery("SELECT kind FROM operation_event WHERE operation_key = '" + key + "' ORDER BY id")) {
            while (rows.next()) {
                kinds.add(rows.getString(1));
            }
        }
        return kinds;
    }

    private static String status(Connection c, String key) throws SQLException {
        try (ResultSet row = c.createStatement().executeQuery("SELECT status FROM agent_operation_log WHERE operation_key = '" + key + "'")) {
            row.next();
            return row.getString(1);
        }
    }
}
