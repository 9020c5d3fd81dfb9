package dev.toolgate.journal;

import dev.toolgate.platform.JournalOutage;
import dev.toolgate.platform.ServerDataSource;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The journal's connections, the two ways a phase has one: inside its container transaction, the entity manager's
 * ({@link #of}); or, for a phase that is one statement (the capture, an agent's outcome), a connection of its own with
 * the statement committed on its own ({@link #autocommitted}) — that commit must be done before the caller goes on
 * (the capture before a target is called, the outcome before the agent hears it), and a transaction would only make it
 * dearer. Either way a failure reaches the caller as JPA's ({@link #run}).
 */
@ApplicationScoped
public class JournalConnections {

    @Resource(lookup = "java:app/jdbc/toolgate")
    DataSource builtIn;
    private DataSource journal;

    public JournalConnections() { // the container's
    }

    /** Over {@code journal} as it is, for a test without a container. */
    public JournalConnections(DataSource journal) {
        this.journal = journal;
    }

    @PostConstruct
    void resolve() {
        journal = ServerDataSource.orElse(builtIn);
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

    /** {@code work}'s SQLException becomes the PersistenceException JPA would throw, so {@link JournalOutage} tells outages either way. */
    public static <T> T run(String failure, SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new PersistenceException(failure, e);
        }
    }

    /** {@code work} on a connection of the journal's outside any container transaction, each statement committed on its own. */
    public <T> T autocommitted(String failure, ConnectionWork<T> work) {
        return run(failure, () -> {
            try (Connection connection = journal.getConnection()) {
                if (!connection.getAutoCommit()) { // said here, not left to the pool's default
                    connection.setAutoCommit(true);
                }
                return work.run(connection);
            }
        });
    }
}
