package dev.toolgate.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.lifecycle.PlainThreads;
import dev.toolgate.platform.Notifications;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The gateway tells a connection of its own to PostgreSQL from one through PgBouncer in transaction pooling mode, and
 * uses the caller cache only on the former: through the pooler no LISTEN can be relied on, so every request reads the
 * principal table and a revocation made anywhere takes effect on the next one, whatever {@code cache-seconds} says.
 */
class PoolerDetectionIT {

    /** Checks through the pooler in a row: each must find it, none may conclude "direct" by chance. */
    private static final int CHECKS = 20;
    private static final String LISTENER_THREAD = "toolgate-principal-changes";
    private static final Caller AUDITOR = new Caller("auditor-a", "acme", EnumSet.of(Role.AUDITOR));

    private static EmbeddedPostgres postgres;
    private static TransactionPooler pooler;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        pooler = TransactionPooler.inFrontOf(postgres.getPort());
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (pooler != null) {
                pooler.close();
            }
        } finally {
            postgres.close();
        }
    }

    @Test
    void findsAConnectionToPostgresItselfDirect() throws Exception {
        DataSource direct = postgres.getPostgresDatabase();
        try (Connection connection = direct.getConnection()) {
            PoolerCheck.Verdict verdict = PoolerCheck.run(connection, Notifications.on(connection).startupPid(), direct);
            assertInstanceOf(PoolerCheck.Direct.class, verdict, verdict.toString());
        }
    }

    @Test
    void findsPgBouncerInTransactionModeAPoolerEveryTime() throws Exception {
        DataSource pooled = pooler.dataSource();
        for (int i = 0; i < CHECKS; i++) {
            try (Connection connection = pooled.getConnection()) {
                PoolerCheck.Verdict verdict = PoolerCheck.run(connection, Notifications.on(connection).startupPid(), pooled);
                assertInstanceOf(PoolerCheck.Pooled.class, verdict, "check " + i + ": " + verdict);
            }
        }
    }

    @Test
    void cachesCallersOnAConnectionToPostgresItself() throws Exception {
        try (Listening listening = Listening.on(postgres.getPostgresDatabase())) {
            awaitTrue(() -> listening.cache().isHearing(), "the listener to prove it hears");
            listening.cache().put("digest", AUDITOR, listening.cache().stamp());
            assertEquals(Optional.of(AUDITOR), listening.cache().get("digest"));
            // the listener logs this just after it starts hearing: awaited, not read at once (a busy machine came between)
            awaitTrue(() -> listening.said(Level.INFO, "authenticated callers are cached"), "the listener to say it caches");
        }
    }

    @Test
    void readsThePrincipalOnEveryRequestThroughPgBouncerAndSaysSoOnce() throws Exception {
        try (Listening listening = Listening.on(pooler.dataSource())) {
            awaitTrue(() -> listening.said(Level.WARNING, "pooler"), "the listener to say it found a pooler");
            awaitTrue(() -> Thread.getAllStackTraces().keySet().stream().noneMatch(t -> LISTENER_THREAD.equals(t.getName())),
                    "the listener to end: nothing is left that could turn the cache on");

            listening.cache().put("digest", AUDITOR, listening.cache().stamp());
            assertFalse(listening.cache().isHearing());
            assertEquals(Optional.empty(), listening.cache().get("digest"), "the next request reads the principal table");
            assertEquals(1, listening.lines().size(), "one line, and nothing after it: " + listening.lines());
            assertTrue(listening.lines().get(0).contains("every request reads the principal table"), listening.lines().get(0));
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("waited 20 s for " + what);
            }
            Thread.sleep(50);
        }
    }

    /** A listener as the container starts one, over {@code dataSource}, and the lines it logs. */
    private static final class Listening extends Handler implements AutoCloseable {

        private static final Logger LOG = Logger.getLogger(PrincipalChangeListener.class.getName());
        private final List<LogRecord> records = new CopyOnWriteArrayList<>();
        private final PrincipalChangeListener listener = new PrincipalChangeListener();

        static Listening on(DataSource dataSource) {
            Listening listening = new Listening();
            LOG.addHandler(listening);
            AuthenticatedCallers callers = new AuthenticatedCallers();
            callers.lifetimeSeconds = 60; // the default: whatever it says, a pooler turns the cache off
            callers.capacity = 100;
            callers.create();
            listening.listener.builtIn = dataSource;
            listening.listener.threads = new PlainThreads();
            listening.listener.callers = callers;
            listening.listener.start();
            return listening;
        }

        CallerCache cache() {
            return listener.callers.cache();
        }

        boolean said(Level level, String words) {
            return records.stream().anyMatch(r -> r.getLevel().equals(level) && r.getMessage().contains(words));
        }

        List<String> lines() {
            return records.stream().map(r -> r.getLevel() + " " + r.getMessage()).toList();
        }

        @Override
        public void publish(LogRecord record) {
            record.getMessage(); // a supplier's message is made when the record is
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            listener.stop();
            LOG.removeHandler(this);
        }
    }
}
