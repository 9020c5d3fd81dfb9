package dev.toolgate.it.support;

import dev.toolgate.launcher.LocalStack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * PgBouncer (Debian's package, 1.18) in transaction pooling mode in front of a PostgreSQL: a connection pooler as
 * teams run one, between the gateway and its journal. Started from {@code /usr/sbin/pgbouncer} (the build installs it,
 * it/src/test/debian/ensure-packages.sh), as {@code nobody} when the tests run as root (it refuses root), with its
 * configuration and log under {@code target/}.
 *
 * <p>1.18 predates protocol-level prepared statements, so a client must not prepare on the server: the journal's URL
 * through it carries {@code prepareThreshold=0} ({@link #jdbcUrl}). The driver's {@code extra_float_digits} start-up
 * parameter is ignored, as PgBouncer's own documentation says to for JDBC. Its admin console answers
 * {@code postgres} ({@link #stats}), so a suite can show that its traffic went through PgBouncer.
 */
public final class PgBouncer implements AutoCloseable {

    private static final Path BINARY = Path.of("/usr/sbin/pgbouncer");
    private final Process process;
    private final int port;
    private final String database;

    private PgBouncer(Process process, int port, String database) {
        this.process = process;
        this.port = port;
        this.database = database;
    }

    /** PgBouncer in front of the PostgreSQL that {@code jdbcUrl} names, for that URL's database. */
    public static PgBouncer inFrontOf(String jdbcUrl) throws IOException {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException("no " + BINARY + ": install Debian's pgbouncer (the build does it: it/src/test/debian/ensure-packages.sh)");
        }
        SuiteTimings.started("PgBouncer");
        URI postgres = URI.create(jdbcUrl.substring("jdbc:".length()));
        String database = postgres.getPath().substring(1);
        int port = LocalStack.freePort();
        // under /tmp, not target/: the user it drops to must read its files, whatever the checkout's permissions
        Path home = Files.createTempDirectory("toolgate-pgbouncer-");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.writeString(home.resolve("users.txt"), "\"postgres\" \"postgres\"\n");
        Files.writeString(home.resolve("pgbouncer.ini"), String.join("\n",
                "[databases]",
                "* = host=" + postgres.getHost() + " port=" + postgres.getPort(),
                "[pgbouncer]",
                "listen_addr = 127.0.0.1",
                "listen_port = " + port,
                "unix_socket_dir =",
                "auth_type = trust",
                "auth_file = " + home.resolve("users.txt"),
                "admin_users = postgres",
                "pool_mode = transaction",
                "max_client_conn = 500",
                "default_pool_size = 20",
                "ignore_startup_parameters = extra_float_digits,options",
                "logfile = " + home.resolve("pgbouncer.log"),
                ""));
        for (Path file : new Path[] {home.resolve("users.txt"), home.resolve("pgbouncer.ini")}) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        }
        ProcessBuilder builder = "root".equals(System.getProperty("user.name"))
                ? new ProcessBuilder(BINARY.toString(), "-u", "nobody", home.resolve("pgbouncer.ini").toString())
                : new ProcessBuilder(BINARY.toString(), home.resolve("pgbouncer.ini").toString());
        Path log = Path.of("target", "pgbouncer-" + port + ".out").toAbsolutePath();
        Files.createDirectories(log.getParent());
        Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        PgBouncer pgBouncer = new PgBouncer(process, port, database);
        pgBouncer.awaitListening(log);
        return pgBouncer;
    }

    /** The journal's URL through PgBouncer: no server-side prepared statements (see the class comment). */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?prepareThreshold=0";
    }

    /**
     * What PgBouncer has counted for the database since it started ({@code SHOW STATS}: {@code total_xact_count},
     * {@code total_query_count} …); empty until a client of that database has connected.
     */
    public Map<String, String> stats() throws IOException {
        return PgBouncerConsole.show(port, "postgres", "SHOW STATS").stream()
                .filter(row -> database.equals(row.get("database"))).findFirst().orElse(Map.of());
    }

    private void awaitListening(Path log) throws IOException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("pgbouncer exited with " + process.exitValue() + ": " + Files.readString(log));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(50); // it listens within milliseconds
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
        }
        throw new IllegalStateException("pgbouncer does not listen on " + port + ": " + Files.readString(log));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
