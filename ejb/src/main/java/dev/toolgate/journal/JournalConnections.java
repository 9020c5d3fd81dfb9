package dev.toolgate.journal;

import dev.toolgate.platform.JournalOutage;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

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

    /** {@code work}'s SQLException becomes the PersistenceException JPA would throw, so {@link JournalOutage} tells outages either way. */
    public static <T> T run(String failure, SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new PersistenceException(failure, e);
        }
    }
}
