package dev.toolgate.access;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.toolgate.journal.JournalConnections;

/**
 * Listens on the journal's {@code toolgate_principal} channel (announced by a trigger on every change
 * to a principal, migration V7) on one connection of its own, and drops each changed principal from
 * this instance's {@link CallerCache}. The cache trusts nothing while this is not listening: on a lost
 * connection it is emptied and stays unused until the listener is back, because changes made meanwhile
 * were announced to nobody here.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED) // LISTEN needs no transaction; the loop holds none
public class PrincipalChangeListener {

    static final String CHANNEL = "toolgate_principal";
    private static final Logger LOG = Logger.getLogger(PrincipalChangeListener.class.getName());
    /** How long one wait for announcements lasts; also how soon a stop is noticed. */
    private static final int WAIT_MILLIS = 1_000;
    /**
     * A black-holed connection raises nothing while waiting (the wait just times out): a probe every
     * 10 s meets the socket timeout instead, and the cache goes unused until the journal answers again.
     */
    private static final long PROBE_EVERY_MILLIS = 10_000;
    private static final int PROBE_TIMEOUT_SECONDS = 5;
    /** Reconnects after 1 s, doubling to 30 s while the journal stays away (each try costs the pool a warning). */
    private static final long RECONNECT_FIRST_MILLIS = 1_000;
    private static final long RECONNECT_MAX_MILLIS = 30_000;

    @Resource(lookup = "java:app/jdbc/toolgate")
    DataSource builtIn;
    @Resource
    ManagedThreadFactory threads;
    @Inject
    AuthenticatedCallers callers;

    private volatile boolean running = true;
    private Thread thread;

    @PostConstruct
    void start() {
        thread = threads.newThread(this::listen);
        thread.setName("toolgate-principal-changes");
        thread.start();
    }

    @PreDestroy
    void stop() {
        running = false;
        callers.cache().deaf();
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void listen() {
        DataSource dataSource = JournalConnections.dataSource(builtIn);
        boolean lost = false;
        long backOff = RECONNECT_FIRST_MILLIS;
        while (running) {
            try (Connection connection = dataSource.getConnection()) {
                PGConnection postgres = connection.unwrap(PGConnection.class);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + CHANNEL);
                }
                callers.cache().hearing();
                LOG.log(lost ? Level.WARNING : Level.INFO, "listening for principal changes: authenticated callers are cached");
                lost = false;
                backOff = RECONNECT_FIRST_MILLIS;
                hear(connection, postgres);
            } catch (SQLException | RuntimeException e) {
                callers.cache().deaf();
                if (running && !lost) {
                    LOG.warning(() -> "not listening for principal changes (" + e.getClass().getSimpleName()
                            + "): every request reads the principal table until the journal answers again");
                }
                lost = true;
            }
            pause(backOff);
            backOff = Math.min(RECONNECT_MAX_MILLIS, backOff * 2);
        }
    }

    private void hear(Connection connection, PGConnection postgres) throws SQLException {
        long probeAt = System.currentTimeMillis() + PROBE_EVERY_MILLIS;
        while (running) {
            PGNotification[] changes = postgres.getNotifications(WAIT_MILLIS);
            if (changes != null) {
                for (PGNotification change : changes) {
                    callers.cache().changed(change.getParameter());
                }
            }
            if (System.currentTimeMillis() >= probeAt) {
                if (!connection.isValid(PROBE_TIMEOUT_SECONDS)) { // an empty query: no statement in the journal's statistics
                    throw new SQLException("the journal did not answer the listener's probe", "08006");
                }
                probeAt = System.currentTimeMillis() + PROBE_EVERY_MILLIS;
            }
        }
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
