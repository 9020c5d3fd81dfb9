package dev.toolgate.platform;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import jakarta.ejb.EJBException;
import jakarta.persistence.PersistenceException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/** What the driver really raises when PostgreSQL is away, told apart from what a bug raises. */
class JournalOutageIT {

    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
    }

    @Test
    void aRefusedConnectionIsAnOutageHoweverWrapped() throws Exception {
        SQLException refused = connectionError(closedPort());
        assertTrue(JournalOutage.causes(refused), refused.getSQLState() + " " + refused);
        assertTrue(JournalOutage.causes(new EJBException(new PersistenceException("wrapped", refused))));
    }

    @Test
    void aServerThatAcceptsAndSaysNothingIsAnOutageWithinTheLoginTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            long started = System.nanoTime();
            SQLException timedOut = connectionError(silent.getLocalPort());
            long tookMillis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(JournalOutage.causes(timedOut), timedOut.getSQLState() + " " + timedOut);
            assertTrue(tookMillis < 10_000, "bounded by the login timeout, took " + tookMillis + " ms");
        }
    }

    @Test
    void aSessionTerminatedByTheServerIsAnOutage() throws Exception {
        try (Connection victim = postgres.getPostgresDatabase().getConnection();
             Connection admin = postgres.getPostgresDatabase().getConnection()) {
            int pid = victim.unwrap(org.postgresql.PGConnection.class).getBackendPID();
            admin.createStatement().execute("SELECT pg_terminate_backend(" + pid + ")");
            SQLException lost = assertThrows(SQLException.class, () -> victim.createStatement().execute("SELECT 1"));
            assertTrue(JournalOutage.causes(new PersistenceException(lost)), lost.getSQLState() + " " + lost);
        }
    }

    @Test
    void aPoolThatGaveUpIsAnOutage() {
        assertTrue(JournalOutage.causes(new EJBException(new SQLTransientConnectionException("pool exhausted"))));
    }

    @Test
    void aTransactionTheManagerCouldNotEndWithTheJournalIsAnOutage() {
        // what Payara raised when PostgreSQL stopped while a capture was committing (PostgresRestartIT)
        jakarta.transaction.SystemException commitCutOff = new jakarta.transaction.SystemException("commit failed");
        commitCutOff.initCause(new javax.transaction.xa.XAException(javax.transaction.xa.XAException.XAER_RMFAIL));
        assertTrue(JournalOutage.causes(new EJBException(commitCutOff)));
    }

    @Test
    void aConstraintViolationIsNotAnOutage() throws Exception {
        try (Connection c = postgres.getPostgresDatabase().getConnection()) {
            c.createStatement().execute("CREATE TEMP TABLE t (id int PRIMARY KEY)");
            c.createStatement().execute("INSERT INTO t VALUES (1)");
            SQLException duplicate = assertThrows(SQLException.class, () -> c.createStatement().execute("INSERT INTO t VALUES (1)"));
            assertFalse(JournalOutage.causes(new EJBException(new PersistenceException(duplicate))));
        }
    }

    @Test
    void aBugIsNotAnOutage() {
        assertFalse(JournalOutage.causes(new EJBException(new IllegalStateException("a bug"))));
        assertFalse(JournalOutage.causes(new SQLException("syntax error", "42601")));
    }

    private static SQLException connectionError(int port) {
        System.setProperty("toolgate.db.url", "jdbc:postgresql://127.0.0.1:" + port + "/postgres");
        try {
            JournalDataSource dataSource = new JournalDataSource();
            return assertThrows(SQLException.class, () -> dataSource.getConnection("postgres", "postgres").close());
        } finally {
            System.clearProperty("toolgate.db.url");
        }
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
