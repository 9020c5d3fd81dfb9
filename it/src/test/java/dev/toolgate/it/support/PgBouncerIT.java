package dev.toolgate.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Why the journal's URL through PgBouncer says {@code prepareThreshold=0}: in transaction pooling a client's
 * next statement may run on another server connection than the one its driver prepared the statement on. Shown
 * with the driver's default (a statement prepared on the server after five runs), then with the setting.
 */
class PgBouncerIT {

    private static PgBouncer pgBouncer;

    @BeforeAll
    static void start() throws Exception {
        pgBouncer = PgBouncer.inFrontOf(TestStack.newDatabase("pgbouncer_check"));
    }

    @AfterAll
    static void stop() throws Exception {
        pgBouncer.close();
    }

    @Test
    void aStatementPreparedOnOneServerConnectionIsNotOnTheNextWithTheDriversDefault() throws Exception {
        SQLException lost = assertThrows(SQLException.class, () -> runAfterAnotherClientTookItsServerConnection(
                pgBouncer.jdbcUrl().replace("prepareThreshold=0", "prepareThreshold=5")));
        assertTrue(String.valueOf(lost.getMessage()).contains("prepared statement"), lost.getMessage());
    }

    @Test
    void noStatementIsPreparedOnTheServerWithTheJournalsUrl() throws Exception {
        assertEquals(7, runAfterAnotherClientTookItsServerConnection(pgBouncer.jdbcUrl()));
    }

    /** Six runs (the sixth prepared on the server), another client's open transaction, then the seventh run. */
    private static int runAfterAnotherClientTookItsServerConnection(String url) throws SQLException {
        try (Connection one = DriverManager.getConnection(url, "postgres", "postgres");
             Connection other = DriverManager.getConnection(url, "postgres", "postgres");
             PreparedStatement select = one.prepareStatement("SELECT ?::int + 1")) {
            int runs = 0;
            for (int i = 0; i < 6; i++) {
                runs += run(select, i);
            }
            other.setAutoCommit(false); // holds the server connection the last run used, until it ends
            try (ResultSet held = other.createStatement().executeQuery("SELECT 1")) {
                held.next();
                runs += run(select, 6); // on another server connection
            } finally {
                other.rollback();
            }
            return runs;
        }
    }

    private static int run(PreparedStatement select, int i) throws SQLException {
        select.setInt(1, i);
        try (ResultSet r = select.executeQuery()) {
            r.next();
            return r.getInt(1) == i + 1 ? 1 : 0;
        }
    }
}
