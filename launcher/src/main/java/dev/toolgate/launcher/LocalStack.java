package dev.toolgate.launcher;

import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** Starts the pieces of a local Toolgate. */
public final class LocalStack {

    /** Every event the simulated YooKassa notifies, and the Bitrix24 deal events the gateway reads. */
    static final List<String> YOOKASSA_EVENTS = List.of("payment.waiting_for_capture", "payment.succeeded", "payment.canceled",
            "refund.succeeded");
    static final List<String> BITRIX24_EVENTS = List.of("ONCRMDEALADD", "ONCRMDEALUPDATE");

    private LocalStack() {
    }

    /** A real PostgreSQL from a Maven artifact; {@code dataDirectory} is kept, so data survives restarts. */
    public static EmbeddedPostgres postgres(Path dataDirectory, int port) throws IOException {
        return postgresBuilder(dataDirectory, port).start();
    }

    /** The same, durable: fsync, synchronous commits and full-page writes on, which the embedded default turns off. */
    public static EmbeddedPostgres durablePostgres(Path dataDirectory, int port) throws IOException {
        return postgresBuilder(dataDirectory, port).setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on").start();
    }

    private static EmbeddedPostgres.Builder postgresBuilder(Path dataDirectory, int port) throws IOException {
        Files.createDirectories(dataDirectory.getParent());
        // the library waits 10 s for a start: too short for a first start on cores other work keeps busy
        return EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(false).setPort(port)
                .setPGStartupWait(Duration.ofMinutes(2))
                .setServerConfig("max_connections", "200");
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

    /**
     * JVM options for a process that lives seconds or minutes under little load: the C1 compiler only, and the serial
     * collector. C2 compiles hot code again, on cores the start itself needs, for a speed only a long run under load
     * repays (docs/testing.md, How long the whole run takes). The benchmark's full run, which measures that long run,
     * keeps the defaults, as production does.
     */
    public static final List<String> SHORT_LIVED_JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    /**
     * How long the simulators may take to listen: their start takes about 1.3 s of CPU, so 30 s of it without a listener
     * is a failure; by the clock they get ten minutes, as a gateway does ({@link GatewayProcess#READY}).
     */
    static final StartPatience SIMULATORS_START = new StartPatience(Duration.ofSeconds(30), Duration.ofMinutes(10));

    /** The simulators in a process of their own, on this JVM's class path. */
    public static Process simulators(int port, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        requireFree(port, "toolgate.simulator.port");
        Process process = new ProcessBuilder(simulatorsCommand(port)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        awaitPort(port, process, SIMULATORS_START, log);
        return process;
    }

    static List<String> simulatorsCommand(int port) {
        List<String> command = new ArrayList<>(javaCommand());
        command.addAll(SHORT_LIVED_JVM);
        command.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"), Simulators.class.getName(),
                Integer.toString(port)));
        return command;
    }

    /** The gateway's configuration by MicroProfile Config property name, pointed at the simulators. */
    public static Map<String, String> gatewayConfig(String jdbcUrl, String simulatorsUrl) {
        return gatewayConfig(jdbcUrl, simulatorsUrl, null);
    }

    /** The same over HTTPS, each target trusting {@code trustBundle} (null: the JDK's default trust). */
    public static Map<String, String> gatewayConfig(String jdbcUrl, String simulatorsUrl, Path trustBundle) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("toolgate.db.url", jdbcUrl);
        config.put("toolgate.db.user", "postgres");
        config.put("toolgate.db.password", "postgres");
        config.put("toolgate.target.1c.url", Simulators.oneCUrl(simulatorsUrl));
        config.put("toolgate.target.1c.user", Simulators.ONE_C_USER);
        config.put("toolgate.target.1c.password", Simulators.ONE_C_PASSWORD);
        config.put("toolgate.target.1c.organization-key", Simulators.oneCOrganizationKey());
        config.put("toolgate.target.1c.currency-keys", Simulators.oneCCurrencyKeys());
        config.put("toolgate.target.bitrix24.url", Simulators.bitrix24Url(simulatorsUrl));
        config.put("toolgate.target.yookassa.url", Simulators.yooKassaUrl(simulatorsUrl));
        config.put("toolgate.target.yookassa.shop-id", Simulators.YOOKASSA_SHOP_ID);
        config.put("toolgate.target.yookassa.secret-key", Simulators.YOOKASSA_SECRET_KEY);
        // the notifications the simulators send (subscribeNotifications): YooKassa's are told by their source address,
        // Bitrix24's by the application token the portal shows when its outbound webhook is made
        config.put("toolgate.target.yookassa.notifications.sources", "127.0.0.1/32");
        config.put("toolgate.target.bitrix24.notifications.application-token", Simulators.BITRIX24_APPLICATION_TOKEN);
        // a browser-based MCP tool on this machine (an inspector, the conformance suite) sends a localhost Origin; a
        // rebinding page's Origin is its own name, so this opens nothing to other sites (production lists origins)
        config.put("toolgate.mcp.allow-localhost-origins", "true");
        if (trustBundle != null) {
            for (String system : List.of("1c", "bitrix24", "yookassa")) {
                config.put("toolgate.target." + system + ".tls.trust-bundle", trustBundle.toString());
            }
        }
        return config;
    }

    /** Subscribes the gateway to the simulators' notifications through their real APIs, as an operator does. */
    public static void subscribeNotifications(String simulatorsUrl, int gatewayPort) {
        SimulatorClient simulators = new SimulatorClient(simulatorsUrl);
        String gateway = "http://127.0.0.1:" + gatewayPort;
        for (String event : YOOKASSA_EVENTS) {
            simulators.subscribeYooKassa(event, gateway + "/notifications/yookassa");
        }
        for (String event : BITRIX24_EVENTS) {
            simulators.bindBitrix24(event, gateway + "/notifications/bitrix24");
        }
    }

    /** The same settings as environment variables: MicroProfile Config maps TOOLGATE_DB_URL to toolgate.db.url. */
    public static Map<String, String> asEnvironment(Map<String, String> config) {
        Map<String, String> env = new LinkedHashMap<>();
        config.forEach((name, value) -> env.put(name.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT), value));
        return env;
    }

    /** A bearer token as the gateway issues them: 256 random bits. Used as the bootstrap admin's. */
    public static String randomToken() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return "tg_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    /** Deletes a folder this project made (a server's root, a test domain), with all it holds. */
    public static void deleteRecursively(Path folder) throws IOException {
        if (Files.exists(folder)) {
            try (Stream<Path> paths = Files.walk(folder)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    /** Where {@link #freePort} picks: below Linux's ephemeral range (32768 and up), and below WildFly's and Payara's. */
    static final int FREE_PORTS_FROM = 2_000;
    static final int FREE_PORTS_TO = 8_000;
    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A port nothing listens on, for a server about to start on it: never one this JVM handed out before, and not from
     * the kernel's ephemeral range, from which every outgoing connection of the host takes its source port. A port
     * the kernel had just chosen for a probe was, now and then, a connection's source port by the time the server bound
     * it, seconds later, and the server did not start ("Address already in use", a gateway booting beside other suites).
     */
    public static int freePort() throws IOException {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int tries = 0; tries < 1_000; tries++) {
            int port = random.nextInt(FREE_PORTS_FROM, FREE_PORTS_TO);
            if (HANDED_OUT.add(port) && bindable(port)) {
                return port;
            }
        }
        try (ServerSocket socket = new ServerSocket(0)) { // that range used up: the kernel's choice, as before
            return socket.getLocalPort();
        }
    }

    /** Whether a server could listen on {@code port}, on every address, now. */
    private static boolean bindable(int port) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true); // as servers bind: a connection of the past minute in TIME_WAIT does not stop them
            probe.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /**
     * Refuses a port another program listens on: waiting for "something listens" would take that program for ours.
     * {@code property} names the setting that picks another port.
     */
    static void requireFree(int port, String property) throws IOException {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException taken) {
            throw new IOException("port " + port + " is in use by another program; stop it, or choose another with -D"
                    + property + "=<port>", taken);
        }
    }

    /**
     * Waits until something listens on {@code port}, as long as {@code patience} allows the process; a process given up on
     * is stopped (its caller holds no handle to stop it with), and the failure quotes the end of its log.
     */
    static void awaitPort(int port, Process process, StartPatience patience, Path log) throws IOException {
        Instant started = Instant.now();
        while (true) {
            if (!process.isAlive()) {
                throw new IOException("process exited with " + process.exitValue() + " before listening on " + port + tail(log));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Optional<String> exhausted = patience.exhausted(process, started);
                if (exhausted.isPresent()) {
                    process.destroyForcibly();
                    throw new IOException("nothing listens on " + port + " after " + exhausted.get() + "; stopped it" + tail(log));
                }
                pause(Duration.ofMillis(100));
            }
        }
    }

    private static String tail(Path log) {
        List<String> end = lastLines(log, 12);
        return end.isEmpty() ? "; its log " + log + " is empty or unreadable" : "; the end of " + log + ":\n  " + String.join("\n  ", end);
    }

    /**
     * The last {@code most} lines of a process's log, none if there is no such file, for a failure's message: the log may
     * be gone by the time anyone reads it.
     */
    public static List<String> lastLines(Path log, int most) {
        try {
            List<String> lines = Files.readAllLines(log, java.nio.charset.StandardCharsets.UTF_8);
            return lines.subList(Math.max(0, lines.size() - most), lines.size());
        } catch (IOException | RuntimeException unreadable) { // absent, or not UTF-8: the message names the file instead
            return List.of();
        }
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
