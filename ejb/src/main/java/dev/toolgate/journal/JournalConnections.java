package dev.toolgate.journal;

import dev.toolgate.platform.JournalDataSource;
import org.eclipse.persistence.sessions.DatabaseLogin;
import org.eclipse.persistence.sessions.DatasourceLogin;
import org.eclipse.persistence.sessions.JNDIConnector;
import org.eclipse.persistence.sessions.Session;
import org.eclipse.persistence.sessions.SessionEvent;
import org.eclipse.persistence.sessions.SessionEventAdapter;
import org.eclipse.persistence.sessions.server.ServerSession;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Where the journal's connections come from. By default the EAR's own datasource
 * ({@code java:app/jdbc/toolgate}, settings from {@code toolgate.db.*}), so a deployment needs nothing
 * on the server. In production a team usually wants the pool to be the server's: URL, credentials
 * and pool size in the server's configuration (which on both servers may in turn read the
 * environment), visible in its monitoring. {@code toolgate.db.datasource} names such a datasource by
 * JNDI, and then JPA (through this session event listener, named in persistence.xml) and the plain JDBC of
 * the migrations, the first look at a key ({@code lifecycle.FirstCapture}) and the principal-change listener
 * (through {@link #dataSource}) all use it; the EAR's own datasource is then defined but never connected.
 */
public class JournalConnections extends SessionEventAdapter {

    static final String SETTING = "toolgate.db.datasource";

    private static final Logger LOG = Logger.getLogger(JournalConnections.class.getName());

    /** The JNDI name of the server-managed datasource, when one is configured. */
    public static Optional<String> serverDataSourceName() {
        return JournalDataSource.setting(SETTING);
    }

    /** The datasource the journal uses: the configured server one, else {@code builtIn}. */
    public static DataSource dataSource(DataSource builtIn) {
        return serverDataSourceName().map(JournalConnections::lookup).orElse(builtIn);
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

    /**
     * Runs as EclipseLink logs the persistence unit's session in, before its first connection. A session event
     * listener, not a session customizer: the customizer's interface moved between the EclipseLink each server ships
     * ({@code config.SessionCustomizer} alone in Payara Server 6's 4.0.1, {@code sessions.SessionCustomizer} alone in
     * Payara 7's 5.0), so no one class deploys on both, while {@code SessionEventAdapter} is in every version.
     */
    @Override
    public void preLogin(SessionEvent event) {
        Session session = event.getSession();
        if (session.getDatasourceLogin() instanceof DatabaseLogin login) {
            // EclipseLink re-runs a read outside a transaction up to 3 times after a lost connection, 5 s
            // apart: with the database away that held every authentication ~10 s before failing. The pool
            // replaces dead connections; a request that met one is answered 503 and retried by its agent.
            login.setQueryRetryAttemptCount(0);
        }
        serverDataSourceName().ifPresent(name -> {
            ((DatasourceLogin) session.getDatasourceLogin()).setConnector(new JNDIConnector(lookup(name)));
            if (session instanceof ServerSession server) {
                // Payara hands EclipseLink a non-transactional twin of the EAR's datasource for reads,
                // which would keep a second pool busy: reads share the one pool, as on WildFly
                server.setReadConnectionPool(server.getDefaultConnectionPool());
            }
            LOG.info(() -> "journal connections from the server's datasource " + name);
        });
    }

    /** Looked up now, so a misspelt name fails the deployment with that name in the message. */
    private static DataSource lookup(String name) {
        try {
            return InitialContext.doLookup(name);
        } catch (NamingException | ClassCastException e) {
            throw new IllegalStateException(SETTING + " names " + name + ", which is not a datasource this server knows: "
                    + e.getMessage(), e);
        }
    }
}
