package dev.toolgate.journal;

import dev.toolgate.platform.ServerDataSource;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The journal's connections outside any container transaction, each statement committed on its own: for a phase that is
 * one statement (the capture, an agent's outcome), whose commit must be done before its caller goes on (the capture
 * before a target is called, the outcome before the agent hears it), and which a transaction would only make dearer.
 */
@ApplicationScoped
public class AutocommitConnections {

    @Resource(lookup = "java:app/jdbc/toolgate")
    DataSource builtIn;
    private DataSource journal;

    public AutocommitConnections() { // the container's
    }

    /** Over {@code journal} as it is, for a test without a container. */
    public AutocommitConnections(DataSource journal) {
        this.journal = journal;
    }

    @PostConstruct
    void resolve() {
        journal = ServerDataSource.orElse(builtIn);
    }

    @FunctionalInterface
    public interface ConnectionWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /** {@code work} on a connection of the journal's, its SQLException as JPA's ({@link JournalConnections#run}). */
    public <T> T run(String failure, ConnectionWork<T> work) {
        return JournalConnections.run(failure, () -> {
            try (Connection connection = journal.getConnection()) {
                if (!connection.getAutoCommit()) { // said here, not left to the pool's default
                    connection.setAutoCommit(true);
                }
                return work.run(connection);
            }
        });
    }
}
