package dev.toolgate.launcher;

import dev.toolgate.simulator.Simulators;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Starts the pieces of a local Toolgate. */
public final class LocalStack {

    private LocalStack() {
    }

    /** A real PostgreSQL from a Maven artifact; {@code dataDirectory} is kept, so data survives restarts. */
    public static EmbeddedPostgres postgres(Path dataDirectory, int port) throws IOException {
        Files.createDirectories(dataDirectory.getParent());
        return EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setServerConfig("max_connections", "200")
                .start();
    }

    /** Creates {@code name} unless it exists; returns its JDBC URL. */
    public static String database(EmbeddedPostgres postgres, String name) throws SQLException {
        try (Connection c = postgres.getPostgresDatabase().getConnection();
             ResultSet exists = c.createStatement().executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
            if (!exists.next()) {
                c.createStatement().execute("CREATE DATABASE " + name);
            }
        }
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/" + name;
    }

    /** The simulators in a process of their own, on this JVM's class path. */
    public static Process simulators(int port, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(javaCommand());
        command.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"), Simulators.class.getName(),
                Integer.toString(port)));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        awaitPort(port, process, Duration.ofSeconds(30));
        return process;
    }

    /**
     * The gateway's configuration, as environment variables (MicroProfile Config maps
     * {@code TOOLGATE_DB_URL} to {@code toolgate.db.url}), pointed at the simulators.
     */
    public static Map<String, String> gatewayEnvironment(String jdbcUrl, String simulatorsUrl) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("TOOLGATE_DB_URL", jdbcUrl);
        env.put("TOOLGATE_DB_USER", "postgres");
        env.put("TOOLGATE_DB_PASSWORD", "postgres");
        env.put("TOOLGATE_TARGET_1C_URL", simulatorsUrl + "/1c/" + Simulators.ONE_C_INFOBASE + "/odata/standard.odata");
        env.put("TOOLGATE_TARGET_1C_USER", Simulators.ONE_C_USER);
        env.put("TOOLGATE_TARGET_1C_PASSWORD", Simulators.ONE_C_PASSWORD);
        env.put("TOOLGATE_TARGET_1C_ORGANIZATION_KEY", Simulators.oneCOrganizationKey());
        env.put("TOOLGATE_TARGET_1C_CURRENCY_KEYS", Simulators.oneCCurrencyKeys());
        return env;
    }

    static void awaitPort(int port, Process process, Duration timeout) throws IOException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("process exited with " + process.exitValue() + " before listening on " + port);
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                pause(Duration.ofMillis(100));
            }
        }
        throw new IOException("nothing listens on " + port + " after " + timeout);
    }

    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static List<String> javaCommand() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}
