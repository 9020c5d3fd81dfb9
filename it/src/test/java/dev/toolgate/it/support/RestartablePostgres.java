package dev.toolgate.it.support;

import dev.toolgate.launcher.LocalStack;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL of a test's own, holding one journal database, that the test stops and starts again on the same
 * data directory and port, as an operator restarts the journal's server: a fast shutdown, so every session ends
 * with FATAL 57P01 while the gateway still holds it. Knows the moment it accepts connections again, from which
 * a gateway's recovery is measured ({@link Readiness#upAfter}).
 */
public final class RestartablePostgres implements AutoCloseable {

    private final Path dataDirectory;
    private final int port;
    private final String database;
    private EmbeddedPostgres postgres;

    private RestartablePostgres(Path dataDirectory, int port, String database) {
        this.dataDirectory = dataDirectory;
        this.port = port;
        this.database = database;
    }

    /** Starts one on a free port in a fresh data directory, with {@code database} created. */
    public static RestartablePostgres start(String database) throws Exception {
        RestartablePostgres started = new RestartablePostgres(Files.createTempDirectory("toolgate-restart-pg").resolve("data"),
                LocalStack.freePort(), database);
        started.postgres = LocalStack.postgres(started.dataDirectory, started.port);
        LocalStack.database(started.postgres, database);
        return started;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** Stops it (pg_ctl stop -m fast: sessions terminated, the port closed). */
    public void stop() throws IOException {
        postgres.close();
    }

    /** Stops it, leaves it down for {@code down}, starts it again; returns {@link #startAgainAfter}'s moment. */
    public long restartAfter(Duration down) throws Exception {
        stop();
        return startAgainAfter(down);
    }

    /**
     * Starts it again on its data directory and port after {@code down}; returns the {@link System#nanoTime} at
     * which a client's connection was first accepted, polled every 20 ms while it starts.
     */
    public long startAgainAfter(Duration down) throws Exception {
        Thread.sleep(down.toMillis());
        CompletableFuture<EmbeddedPostgres> started = CompletableFuture.supplyAsync(() -> {
            try {
                return LocalStack.postgres(dataDirectory, port);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        long accepting = 0;
        while (accepting == 0) {
            try (Connection ignored = connect()) {
                accepting = System.nanoTime();
            } catch (SQLException notYet) {
                if (started.isCompletedExceptionally()) {
                    started.join(); // its failure, not a minute of polling
                }
                Thread.sleep(20);
            }
        }
        postgres = started.get(60, TimeUnit.SECONDS);
        return accepting;
    }

    /** A connection of the test's own to the journal database, straight to PostgreSQL. */
    public Connection connect() throws SQLException {
        Properties login = new Properties();
        login.setProperty("user", "postgres");
        login.setProperty("password", "postgres");
        login.setProperty("connectTimeout", "1");
        return DriverManager.getConnection(jdbcUrl(), login);
    }

    /**
     * Sessions of a gateway's caller-cache listener on the journal, whichever pool it came from: its probe is the
     * only {@code pg_notify} a gateway runs itself.
     */
    public int listeners() throws SQLException {
        try (Connection c = connect();
             ResultSet count = c.createStatement().executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                     + " AND application_name LIKE 'toolgate%' AND query LIKE '%pg_notify%' AND pid <> pg_backend_pid()")) {
            count.next();
            return count.getInt(1);
        }
    }

    /** Stops it and deletes its data directory. */
    @Override
    public void close() throws IOException {
        try {
            if (postgres != null) {
                postgres.close();
            }
        } finally {
            LocalStack.deleteRecursively(dataDirectory.getParent());
        }
    }
}
