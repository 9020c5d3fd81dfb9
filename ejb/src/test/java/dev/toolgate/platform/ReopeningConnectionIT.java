package dev.toolgate.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.platform.JournalOutage;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import jakarta.persistence.PersistenceException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A journal connection whose PostgreSQL session ended (a restart, a terminated backend) gets a new session when a
 * pool hands it out, as the old one was set up; a live one is not checked again within a second; one that cannot
 * be given a new session fails as a lost connection does.
 */
class ReopeningConnectionIT {

    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        try (Connection admin = postgres.getPostgresDatabase().getConnection()) {
            admin.createStatement().execute("CREATE ROLE journal LOGIN PASSWORD 'journal'");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
    }

    @Test
    void aSessionPostgresEndedIsReplacedWhenThePoolHandsTheConnectionOutAsItWasSetUp() throws Exception {
        try (Connection connection = journal()) {
            connection.setAutoCommit(false); // as a pool leaves it after a local transaction
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            connection.setClientInfo("ApplicationName", "toolgate-test");
            connection.commit();
            int before = backend(connection);
            terminate(before);
            Thread.sleep(ReopeningConnection.CHECK_EVERY_NANOS / 1_000_000 + 100);

            connection.beginRequest();

            assertNotEquals(before, backend(connection), "a new session");
            assertFalse(connection.getAutoCommit());
            assertEquals(Connection.TRANSACTION_REPEATABLE_READ, connection.getTransactionIsolation());
            assertTrue(connection.isReadOnly());
            assertEquals("toolgate-test", connection.getClientInfo("ApplicationName"));
            assertEquals("journal", single(connection, "SELECT current_user"));
            connection.commit();
            assertTrue(connection.unwrap(PGConnection.class).getBackendPID() > 0, "the listener's LISTEN needs the driver's own");
        }
    }

    @Test
    void aConnectionProvedAliveWithinTheLastSecondIsHandedOutUnchecked() throws Exception {
        try (Connection connection = journal()) {
            int before = backend(connection); // just opened: counts as proved
            terminate(before);

            connection.beginRequest();

            assertThrows(SQLException.class, () -> backend(connection), "not checked, so not replaced: the cost a busy pool is spared");
        }
    }

    @Test
    void aSessionThatCannotBeReplacedFailsItsNextUseAsALostConnection() throws Exception {
        try (Connection connection = journal(); Connection admin = postgres.getPostgresDatabase().getConnection()) {
            terminate(backend(connection));
            admin.createStatement().execute("ALTER ROLE journal NOLOGIN"); // no new session, as while PostgreSQL is still away
            try {
                Thread.sleep(ReopeningConnection.CHECK_EVERY_NANOS / 1_000_000 + 100);
                assertThrows(SQLException.class, connection::beginRequest);
                SQLException lost = assertThrows(SQLException.class, () -> backend(connection));
                assertTrue(JournalOutage.causes(new PersistenceException(lost)), lost.getSQLState() + " " + lost);
            } finally {
                admin.createStatement().execute("ALTER ROLE journal LOGIN");
            }
        }
    }

    private static Connection journal() throws SQLException {
        JournalDataSource dataSource = new JournalDataSource();
        dataSource.setUrl("jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres");
        dataSource.setUser("journal");
        dataSource.setPassword("journal");
        return dataSource.getConnection();
    }

    private static int backend(Connection connection) throws SQLException {
        return Integer.parseInt(single(connection, "SELECT pg_backend_pid()"));
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (ResultSet row = connection.createStatement().executeQuery(sql)) {
            row.next();
            return row.getString(1);
        }
    }

    private static void terminate(int pid) throws Exception {
        try (Connection admin = postgres.getPostgresDatabase().getConnection()) {
            admin.createStatement().execute("SELECT pg_terminate_backend(" + pid + ")");
        }
        Thread.sleep(100); // the backend is gone once its socket is: give it the moment it takes
    }
}
