package dev.toolgate.journal;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Plain JDBC inside a journal transaction: the connection it runs on, and its failures as JPA's. Where the
 * connections come from (the EAR's own datasource or the server's) is {@code platform.ServerDataSource}'s.
 */
public final class JournalConnections {

    private JournalConnections() {
    }

    /**
     * The connection the caller's journal transaction runs on: the one its entity manager uses, so plain JDBC
     * and JPA in one transaction share it on every server, whatever its pool shares. EclipseLink opens the
     * transaction on it if it has not yet. It belongs to the transaction: the caller never closes it. A statement
     * run on it does not flush the entity manager first, as a JPA query would: a phase that changed an entity and
     * then runs JDBC flushes before it; one that read an entity and then moves its row on by JDBC detaches the entity
     * first, so that its stale fields are never written back ({@code KeyCapture}'s leases).
     */
    public static Connection of(EntityManager em) {
        Connection connection = em.unwrap(Connection.class);
        if (connection == null) {
            throw new IllegalStateException("no journal transaction is active: the journal's writes run inside one");
        }
        return connection;
    }

    /** A step of plain JDBC against the journal. */
    @FunctionalInterface
    public interface SqlWork<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code work}, its SQLException becoming the PersistenceException JPA would have thrown for the same
     * failure, the cause kept: an outage is told apart by it ({@link JournalOutage}), whichever way the statement ran.
     */
    public static <T> T run(String failure, SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new PersistenceException(failure, e);
        }
    }
}
