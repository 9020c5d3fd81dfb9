package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.FirstCapture.KeyLook;
import dev.toolgate.journal.JournalConnections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.CanonicalRequest;
import dev.toolgate.canonical.Canonicalizer;
import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationView;
import jakarta.json.Json;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The first statement of a call with a key ({@link OperationWrites#READ_OR_CAPTURE}) on real PostgreSQL: a new key is
 * captured with its event; a key with a row is read and nothing is written — not even a transaction id taken; of two
 * callers racing with a new key exactly one captures it and the other sees neither a row nor a capture. A key the
 * instance knows has a row ({@link KnownKeys}) is read by its key alone, and captured again if its row has gone.
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

    @Test
    void aKeyThisInstanceKnowsIsReadByItsKeyAlone() throws SQLException {
        String key = key();
        try (Connection c = database.connection()) {
            look(c, key);
            List<String> sent = new ArrayList<>();

            FirstCapture.First first = FirstCapture.first(recording(c, sent), true, "acme", key, FirstCaptureIT::unused);

            assertFalse(first.captured());
            assertEquals(key, first.row().key());
            assertEquals(List.of(OperationRows.BY_KEY), sent, "the read by key, not the capture's statement");
        }
    }

    @Test
    void aKnownKeyWhoseRowHasGoneIsCapturedAgain() throws SQLException {
        String key = key();
        try (Connection c = database.connection()) {
            List<String> sent = new ArrayList<>();

            FirstCapture.First first = FirstCapture.first(recording(c, sent), true, "acme", key, () -> values(key));

            assertTrue(first.captured());
            assertEquals(2, sent.size(), "the read by key found nothing, then the capture: " + sent);
            assertEquals(OperationRows.BY_KEY, sent.get(0));
            assertEquals(List.of("captured"), events(c, key));
        }
    }

    @Test
    void anUnknownKeyIsReadOrCapturedByTheOneStatement() throws SQLException {
        String key = key();
        try (Connection c = database.connection()) {
            look(c, key);
            List<String> sent = new ArrayList<>();

            FirstCapture.First first = FirstCapture.first(recording(c, sent), false, "acme", key, () -> values(key));

            assertFalse(first.captured());
            assertEquals(key, first.row().key());
            assertEquals(1, sent.size(), sent.toString());
            assertNotEquals(OperationRows.BY_KEY, sent.get(0));
            assertEquals(List.of("captured"), events(c, key), "nothing written");
        }
    }

    @Test
    void theFirstLookAtAKeyThisInstanceCapturedIsItsReadByKeyTheNextTime() throws SQLException {
        List<String> sent = new ArrayList<>();
        FirstCapture capture = new FirstCapture();
        capture.settings = JournalDatabase.settings(30, 30, 10);
        capture.keys = new KnownKeys(1_000);
        capture.journal = new JournalConnections(recording(database.dataSource(), sent));
        capture.transactions = noTransaction();
        Caller caller = new Caller("agent-a", "acme", Set.of(Role.AGENT));
        CanonicalRequest request = Canonicalizer.canonicalize(new AgentCommand("invoice.post", "1c",
                Json.createObjectBuilder().add("invoice_id", UUID.randomUUID().toString()).build()));
        String key = key();

        KeyLook first = capture.look(caller, key, request);
        List<String> firstSent = List.copyOf(sent);
        sent.clear();
        KeyLook second = capture.look(caller, key, request);

        assertInstanceOf(KeyLook.Captured.class, first);
        assertEquals(1, firstSent.size(), firstSent.toString());
        assertNotEquals(OperationRows.BY_KEY, firstSent.get(0), "a key never seen: the capture's statement");
        assertEquals(key, ((KeyLook.Found) second).row().key());
        assertEquals(List.of(OperationRows.BY_KEY), sent, "a key this instance captured: its read by key alone");
    }

    private static Looked look(Connection c, String key) throws SQLException {
        try (PreparedStatement statement = READ_OR_CAPTURE.prepare(c, values(key)); ResultSet row = statement.executeQuery()) {
            row.next();
            return new Looked(row.getLong("captured_rows"), OperationRows.present(row).orElse(null));
        }
    }

    /** The capture's values for a new invoice under {@code key}. */
    private static Object[] values(String key) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return new Object[] {"acme", key, "agent-a", "invoice.create", HASH, "{\"order_id\":\"o\"}", "started", "1c", 1,
                now.plusSeconds(30), now, now, "", false, null, null, "test", "attempt 1 leased"};
    }

    private static Object[] unused() {
        throw new AssertionError("a known key's row was read: the capture's values were not needed");
    }

    /** {@code journal}, each of its connections noting what is prepared on it in {@code sent}. */
    private static DataSource recording(DataSource journal, List<String> sent) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
            if (method.getName().equals("getConnection")) {
                return recording(journal.getConnection(), sent);
            }
            try {
                return method.invoke(journal, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    private static TransactionSynchronizationRegistry noTransaction() {
        return (TransactionSynchronizationRegistry) Proxy.newProxyInstance(FirstCaptureIT.class.getClassLoader(),
                new Class<?>[] {TransactionSynchronizationRegistry.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getTransactionStatus")) {
                        return Status.STATUS_NO_TRANSACTION;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** {@code c}, noting the text of every statement prepared on it in {@code sent}. */
    private static Connection recording(Connection c, List<String> sent) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
            if (method.getName().equals("prepareStatement")) {
                sent.add((String) args[0]);
            }
            try {
                return method.invoke(c, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
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
