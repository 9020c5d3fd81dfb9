package dev.toolgate.journal;

import dev.toolgate.platform.JournalOutage;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;

/** Plain JDBC inside a journal transaction: the connection it runs on, and its failures as JPA's. */
public final class JournalConnections {

    private JournalConnections() {
    }

    /**
     * The connection the caller's entity manager uses, so JDBC and JPA in one transaction share it on every server.
     * Never closed by the caller. A statement on it does not flush the entity manager: a phase that changed an entity
     * flushes first; one that moves a read entity's row on by JDBC detaches it first, so stale fields are never written back.
     */
    public static Connection of(EntityManager em) {
        Connection connection = em.unwrap(Connection.class);
        if (connection == null) {
            throw new IllegalStateException("no journal transaction is active: the journal's writes run inside one");
        }
        return connection;
    }

    @FunctionalInterface
    public interface SqlWork<T> {
        T run() throws SQLException;
    }

    @FunctionalInterface
    public interface ConnectionWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /**
     * {@code work} on a connection of {@code source} outside any container transaction, each statement committed on its
     * own: a phase of one statement needs no transaction, and its commit must be done before the caller goes on (the
     * capture before a target is called, the outcome before the agent hears it).
     */
    public static <T> T autocommitted(DataSource source, String failure, ConnectionWork<T> work) {
        return run(failure, () -> {
            try (Connection connection = source.getConnection()) {
                if (!connection.getAutoCommit()) { // said here, not left to the pool's default
                    connection.setAutoCommit(true);
                }
                return work.run(connection);
            }
        });
    }

    /** {@code work}'s SQLException becomes the PersistenceException JPA would throw, so {@link JournalOutage} tells outages either way. */
    public static <T> T run(String failure, SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new PersistenceException(failure, e);
        }
    }
}
