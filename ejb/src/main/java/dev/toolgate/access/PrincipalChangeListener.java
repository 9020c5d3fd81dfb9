package dev.toolgate.access;

import dev.toolgate.platform.Notifications;
import dev.toolgate.platform.ServerDataSource;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Listens on the journal's {@code toolgate_principal} channel (a trigger, migration V7) on a connection of its own
 * and drops each changed principal from this instance's {@link CallerCache}.
 *
 * <p>A LISTEN lasts as long as its session, so the connection must be a PostgreSQL session of its own, not a
 * pooler's ({@link PoolerCheck}); short of proof the cache stays off. On such a session the listener also proves
 * every {@value #PROBE_EVERY_MILLIS} ms that its own nonce comes back; a lost LISTEN, a black-holed connection or a
 * dead thread ends in silence, and the cache lapses by itself ({@link #HEARING_LAPSE}). Through PgBouncer the probe
 * alone can pass by chance while a revocation is lost, hence both checks.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED) // LISTEN needs no transaction; the loop holds none
public class PrincipalChangeListener {

    static final String CHANNEL = "toolgate_principal";
    private static final Logger LOG = Logger.getLogger(PrincipalChangeListener.class.getName());
    /** How long one wait for announcements lasts; also how soon a stop is noticed. */
    private static final int WAIT_MILLIS = 1_000;
    private static final long PROBE_EVERY_MILLIS = 5_000;
    private static final long PROBE_ANSWER_MILLIS = 5_000;
    /** Without proof for this long the cache is not used: two probes missed, or a listener gone. */
    static final Duration HEARING_LAPSE = Duration.ofMillis(PROBE_EVERY_MILLIS + PROBE_ANSWER_MILLIS + 2_000);
    /** Reconnects after 1 s, doubling to 30 s while the journal stays away (each try costs the pool a warning). */
    private static final long RECONNECT_FIRST_MILLIS = 1_000;
    private static final long RECONNECT_MAX_MILLIS = 30_000;

    @Resource(lookup = "java:app/jdbc/toolgate")
    DataSource builtIn;
    @Resource
    ManagedThreadFactory threads;
    @Inject
    AuthenticatedCallers callers;

    private final String nonce = "listener-" + UUID.randomUUID(); // never a principal id: ids have no such shape
    private volatile boolean running = true;
    private volatile Connection current;
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
        try {
            callers.cache().deaf();
        } catch (RuntimeException gone) {
            // the application's beans are being destroyed too: nothing will read the cache
        }
        Connection connection = current;
        if (connection != null) {
            try {
                connection.close(); // ends a wait on it at once
            } catch (SQLException | RuntimeException ignored) {
                // the thread notices it is to stop either way
            }
        }
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void listen() {
        DataSource dataSource = ServerDataSource.orElse(builtIn);
        CallerCache cache = callers.cache();
        boolean lost = false;
        long backOff = RECONNECT_FIRST_MILLIS;
        try {
            while (running) {
                try (Connection connection = dataSource.getConnection()) {
                    current = connection;
                    connection.setAutoCommit(true); // LISTEN takes effect when its transaction commits
                    Notifications notifications = Notifications.on(connection);
                    Optional<Integer> backend = sessionOfItsOwn(connection, notifications, dataSource);
                    if (backend.isEmpty()) {
                        return; // nothing can be heard through a pooler: the cache stays off (the finally below)
                    }
                    execute(connection, "LISTEN " + CHANNEL);
                    announce(dataSource);
                    if (awaitOwnAnnouncement(notifications, cache) && running) {
                        cache.heard();
                        LOG.log(lost ? Level.WARNING : Level.INFO, "listening for principal changes on backend " + backend.get()
                                + ", a PostgreSQL session of its own: authenticated callers are cached");
                        lost = false;
                        backOff = RECONNECT_FIRST_MILLIS;
                        hear(dataSource, notifications, cache);
                    }
                    cache.deaf();
                    unlisten(connection);
                } catch (SQLException | RuntimeException e) {
                    cache.deaf();
                    if (running && !lost) {
                        LOG.warning(() -> "not listening for principal changes (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                                + "): every request reads the principal table until the journal answers again");
                    }
                    lost = true;
                } finally {
                    current = null;
                }
                if (running) {
                    pause(backOff);
                    backOff = Math.min(RECONNECT_MAX_MILLIS, backOff * 2);
                }
            }
        } finally {
            cache.deaf(); // whatever ends this thread, the cache is not used without it
        }
    }

    /** The listener's backend when {@code connection} is a session of its own; empty, after one log line, otherwise. */
    private Optional<Integer> sessionOfItsOwn(Connection connection, Notifications notifications, DataSource dataSource)
            throws SQLException {
        PoolerCheck.Verdict verdict = PoolerCheck.run(connection, notifications.startupPid(), dataSource);
        if (verdict instanceof PoolerCheck.Direct direct) {
            return Optional.of(direct.backendPid());
        }
        String found = verdict instanceof PoolerCheck.Pooled pooled
                ? "the journal is reached through a connection pooler (" + pooled.evidence() + ")"
                : "the journal's connection could not be shown to be a PostgreSQL session of its own ("
                        + ((PoolerCheck.Unproven) verdict).why() + ")";
        LOG.warning(found + ": announcements of principal changes cannot reach this instance, so the caller cache is off"
                + " and every request reads the principal table, whatever toolgate.auth.cache-seconds says, until the next start");
        return Optional.empty();
    }

    private void hear(DataSource dataSource, Notifications notifications, CallerCache cache) throws SQLException {
        long probeAt = System.currentTimeMillis() + PROBE_EVERY_MILLIS;
        long answerBy = Long.MAX_VALUE;
        while (running) {
            boolean answered = deliver(notifications.await(WAIT_MILLIS), cache);
            long now = System.currentTimeMillis();
            if (answered) {
                cache.heard();
                answerBy = Long.MAX_VALUE;
            } else if (now > answerBy) {
                LOG.warning("the journal did not return the listener's announcement: not using cached callers until it does");
                return;
            }
            if (now >= probeAt && answerBy == Long.MAX_VALUE) {
                announce(dataSource);
                answerBy = now + PROBE_ANSWER_MILLIS;
                probeAt = now + PROBE_EVERY_MILLIS;
            }
        }
    }

    private boolean awaitOwnAnnouncement(Notifications notifications, CallerCache cache) throws SQLException {
        long until = System.currentTimeMillis() + PROBE_ANSWER_MILLIS;
        while (running && System.currentTimeMillis() < until) {
            if (deliver(notifications.await(WAIT_MILLIS), cache)) {
                return true;
            }
        }
        return false;
    }

    private boolean deliver(List<String> announced, CallerCache cache) {
        boolean own = false;
        for (String principalId : announced) {
            if (nonce.equals(principalId)) {
                own = true;
            } else {
                cache.changed(principalId);
            }
        }
        return own;
    }

    private void announce(DataSource dataSource) throws SQLException {
        try (Connection other = dataSource.getConnection(); var notify = other.prepareStatement("SELECT pg_notify(?, ?)")) {
            other.setAutoCommit(true);
            notify.setString(1, CHANNEL);
            notify.setString(2, nonce);
            notify.execute();
        }
    }

    /** The connection goes back to the pool: it must not keep collecting announcements for whoever gets it next. */
    private static void unlisten(Connection connection) {
        try {
            execute(connection, "UNLISTEN *");
        } catch (SQLException | RuntimeException ignored) {
            // a broken connection listens to nothing
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
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
