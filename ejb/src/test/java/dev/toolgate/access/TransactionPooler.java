package dev.toolgate.access;

import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Debian's PgBouncer (1.18) in transaction pooling mode in front of a local PostgreSQL, for the journal ITs about
 * poolers: the same configuration as the end-to-end suites' ({@code dev.toolgate.it.support.PgBouncer}, whose
 * comment says why each line is there), installed by the build before the ITs run (this module's pom). As
 * {@code nobody} when the tests run as root, which it refuses.
 */
final class TransactionPooler implements AutoCloseable {

    private static final Path BINARY = Path.of("/usr/sbin/pgbouncer");
    private final Process process;
    private final int port;

    private TransactionPooler(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static TransactionPooler inFrontOf(int postgresPort) throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException("no " + BINARY + ": install Debian's pgbouncer (the build does it before the ITs)");
        }
        int port = freePort();
        Path home = Files.createTempDirectory("toolgate-pooler-");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path users = Files.writeString(home.resolve("users.txt"), "\"postgres\" \"postgres\"\n");
        Path ini = Files.writeString(home.resolve("pgbouncer.ini"), String.join("\n",
                "[databases]", "* = host=127.0.0.1 port=" + postgresPort,
                "[pgbouncer]", "listen_addr = 127.0.0.1", "listen_port = " + port, "unix_socket_dir =",
                "auth_type = trust", "auth_file = " + users, "pool_mode = transaction", "default_pool_size = 20",
                "ignore_startup_parameters = extra_float_digits,options", "logfile = " + home.resolve("pgbouncer.log"), ""));
        for (Path file : new Path[] {users, ini}) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        }
        ProcessBuilder builder = "root".equals(System.getProperty("user.name"))
                ? new ProcessBuilder(BINARY.toString(), "-u", "nobody", ini.toString())
                : new ProcessBuilder(BINARY.toString(), ini.toString());
        Process process = builder.redirectErrorStream(true).redirectOutput(home.resolve("pgbouncer.out").toFile()).start();
        TransactionPooler pooler = new TransactionPooler(process, port);
        pooler.awaitListening();
        return pooler;
    }

    /** Its clients' datasource: no statement prepared on the server, which the next transaction may not be on. */
    DataSource dataSource() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl("jdbc:postgresql://127.0.0.1:" + port + "/postgres?prepareThreshold=0");
        dataSource.setUser("postgres");
        return dataSource;
    }

    private void awaitListening() throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (Instant.now().isBefore(deadline) && process.isAlive()) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50); // it listens within milliseconds
            }
        }
        throw new IllegalStateException("pgbouncer does not listen on " + port + (process.isAlive() ? "" : ": it exited"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
