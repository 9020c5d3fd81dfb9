package dev.toolgate.it.support;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * TestStack's PostgreSQL, simulators and Micro suites' gateway kept running between test runs, for iterating on a
 * suite without paying for their start each time (docs/testing.md, Iterating). {@link #main} starts them (the
 * {@code standing-stack} profile of it/pom.xml runs it) and writes where they are to {@link #FILE}; a test JVM
 * started with {@code -Dtoolgate.standing-stack.attach=true} reads that file and uses them instead of starting its
 * own. The Micro suites' journal and gateway then outlive each run, which those suites allow: each makes its own
 * keys and principals. A database a suite asks for ({@link TestStack#newDatabase}) is new on every run.
 */
public record StandingStack(int postgresPort, String simulatorsUrl, String simulatorsHttpsUrl, Path caBundle,
                            String adminToken, String microGateway) {

    static final String ATTACH = "toolgate.standing-stack.attach";
    static final Path FILE = Path.of("target", "standing-stack.properties");
    /** The embedded server's superuser, as LocalStack's gateway settings name it. */
    private static final String USER = "postgres";
    private static final String PASSWORD = "postgres";

    /** Starts the stack, writes {@link #FILE}, and keeps everything running until the process is stopped (Ctrl+C). */
    public static void main(String[] args) throws Exception {
        TestStack stack = new TestStack();
        stack.launcherSessionOpened(null);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Files.deleteIfExists(FILE); // nothing may attach to what is gone
            } catch (IOException e) {
                System.err.println(FILE + " was not deleted: " + e);
            }
            stack.launcherSessionClosed(null);
        }, "standing-stack-stop"));
        StandingStack standing = TestStack.describe();
        standing.write();
        System.out.println("standing stack up: PostgreSQL on port " + standing.postgresPort() + ", simulators at "
                + standing.simulatorsUrl() + ", the Micro suites' gateway at " + standing.microGateway() + "; written to "
                + FILE.toAbsolutePath() + ". Run suites with -D" + ATTACH + "=true; Ctrl+C stops the stack.");
        Thread.currentThread().join();
    }

    static StandingStack read() {
        if (!Files.exists(FILE)) {
            throw new IllegalStateException("-D" + ATTACH + "=true but no " + FILE.toAbsolutePath()
                    + ": start the stack first (mvn -P standing-stack -pl it -am pre-integration-test, docs/testing.md)");
        }
        Properties stack = new Properties();
        try (Reader in = Files.newBufferedReader(FILE)) {
            stack.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new StandingStack(Integer.parseInt(stack.getProperty("postgres.port")), stack.getProperty("simulators.url"),
                stack.getProperty("simulators.https-url"), Path.of(stack.getProperty("simulators.ca-bundle")),
                stack.getProperty("admin.token"), stack.getProperty("micro.gateway"));
    }

    private void write() throws IOException {
        Properties stack = new Properties();
        stack.setProperty("postgres.port", Integer.toString(postgresPort));
        stack.setProperty("simulators.url", simulatorsUrl);
        stack.setProperty("simulators.https-url", simulatorsHttpsUrl);
        stack.setProperty("simulators.ca-bundle", caBundle.toAbsolutePath().toString());
        stack.setProperty("admin.token", adminToken);
        stack.setProperty("micro.gateway", microGateway);
        Files.createDirectories(FILE.getParent());
        try (Writer out = Files.newBufferedWriter(FILE)) {
            stack.store(out, "TestStack's servers, kept running by StandingStack");
        }
    }

    String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + postgresPort + "/" + database;
    }

    /**
     * The database {@code name} on the standing PostgreSQL, new: a suite that asks for a database of its own expects
     * it as a fresh PostgreSQL gives it (SchemaMigrationIT's unmigrated, the others' empty), so an earlier run's is
     * dropped first. The gateways that used it stopped with their suite.
     */
    String database(String name) throws SQLException {
        try (Connection c = connect("postgres")) {
            c.createStatement().execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            c.createStatement().execute("CREATE DATABASE " + name);
        }
        return jdbcUrl(name);
    }

    Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), USER, PASSWORD);
    }
}
