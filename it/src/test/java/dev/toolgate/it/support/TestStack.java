package dev.toolgate.it.support;

import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Starts, once per test JVM, a fresh PostgreSQL and the simulators on free ports, and tells the
 * Payara Micro container (started later by Arquillian, in its own process) where they are.
 */
public class TestStack implements LauncherSessionListener {

    private static EmbeddedPostgres postgres;
    private static Simulators simulators;
    private static Map<String, String> gatewayConfig;
    private static final String ADMIN_TOKEN = LocalStack.randomToken();

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        try {
            postgres = EmbeddedPostgres.builder().setServerConfig("max_connections", "300").start();
            simulators = Simulators.start(0);
            gatewayConfig = configFor(newDatabase("toolgate"));
            System.setProperty("payara.extraMicroOptions", "--postbootcommandfile " + GatewayProcess.postBootFile(runtime()));
        } catch (Exception e) {
            throw new IllegalStateException("the test stack did not start", e);
        }
        Map<String, String> arquillianGateway = new LinkedHashMap<>(gatewayConfig);
        // the end-to-end suite watches each call's effects: no background job may act between them
        arquillianGateway.put("toolgate.reconcile.interval-seconds", "0");
        arquillianGateway.put("toolgate.reconcile.settle-seconds", "2");
        arquillianGateway.put("toolgate.reconcile.max-attempts", "2");
        System.setProperty("payara.cmdOptions", "-Xmx768m " + arquillianGateway.entrySet().stream()
                .map(setting -> "-D" + setting.getKey() + "=" + setting.getValue()).collect(Collectors.joining(" ")));
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (simulators != null) {
            simulators.close();
        }
        try {
            if (postgres != null) {
                postgres.close();
            }
        } catch (Exception e) {
            System.err.println("postgres did not stop cleanly: " + e);
        }
    }

    /** A gateway process with {@code config} on a free port, started (not yet ready), logging to target/{@code log}.log. */
    public static GatewayProcess startGateway(Map<String, String> config, String log) throws IOException {
        return startGateway(LocalStack.freePort(), config, log);
    }

    /** A gateway process with {@code config}, started and ready to take calls. */
    public static GatewayProcess readyGateway(Map<String, String> config, String log) throws IOException {
        GatewayProcess gateway = startGateway(config, log);
        try {
            gateway.awaitReady();
        } catch (IOException | RuntimeException e) {
            try {
                gateway.close(); // the test class never gets hold of it to stop it: it would outlive the run
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            throw e;
        }
        return gateway;
    }

    /** Stops a test class's gateway, if its start got as far as making one. */
    public static void stop(GatewayProcess gateway) throws Exception {
        if (gateway != null) {
            gateway.close();
        }
    }

    /** The same on {@code port}: a restarted gateway keeps its address. */
    public static GatewayProcess startGateway(int port, Map<String, String> config, String log) throws IOException {
        GatewayProcess gateway = new GatewayProcess(runtime(), port, LocalStack.asEnvironment(config),
                Path.of("target", log + ".log").toAbsolutePath());
        Credentials.serves(gateway.baseUrl(), config.get("toolgate.db.url"));
        return gateway.start();
    }

    public static Map<String, String> gatewayConfig() {
        return gatewayConfig;
    }

    /** The gateway's settings for a journal in database {@code jdbcUrl}, against the shared simulators. */
    /**
     * {@code config} for a run that drives many operations: no rate limit, targets given up on after
     * {@code readTimeoutMs}, retries after 100 ms.
     */
    public static Map<String, String> underLoad(Map<String, String> config, int readTimeoutMs) {
        config.put("toolgate.rate-limit.per-second", "100000");
        config.put("toolgate.rate-limit.burst", "100000");
        for (String system : List.of("1c", "bitrix24", "yookassa")) {
            config.put("toolgate.target." + system + ".read-timeout-ms", Integer.toString(readTimeoutMs));
            config.put("toolgate.target." + system + ".retry.initial-delay-ms", "100");
        }
        return config;
    }

    /**
     * {@code config} for a suite that waits on the reconcile job: a run every second, look-ups settled after 2 s and
     * backed off 2 s at most, waiting processes looked at every second.
     */
    public static Map<String, String> fastReconcile(Map<String, String> config) {
        config.put("toolgate.reconcile.interval-seconds", "1");
        config.put("toolgate.reconcile.settle-seconds", "2");
        config.put("toolgate.reconcile.max-backoff-seconds", "2");
        config.put("toolgate.process.poll-seconds", "1");
        return config;
    }

    public static Map<String, String> configFor(String jdbcUrl) {
        // every target over HTTPS with the run's private CA, so each end-to-end test also proves TLS
        Map<String, String> config = new LinkedHashMap<>(LocalStack.gatewayConfig(jdbcUrl, simulators.httpsBaseUrl(),
                simulators.tls().caBundle()));
        config.put("toolgate.admin.bootstrap-token", ADMIN_TOKEN);
        return config;
    }

    public static String adminToken() {
        return ADMIN_TOKEN;
    }

    /** A fresh database on the shared PostgreSQL, for a test class whose jobs must not see other classes' rows. */
    public static String newDatabase(String name) throws SQLException {
        return LocalStack.database(postgres, name);
    }

    public static Connection connect(String database) throws SQLException {
        return postgres.getDatabase("postgres", database).getConnection();
    }

    public static Simulators simulators() {
        return simulators;
    }

    /** Where the simulated YooKassa API lives, for a test that plays another client of the same shop. */
    public static String yooKassaUrl() {
        return Simulators.yooKassaUrl(simulators.baseUrl());
    }

    public static SimulatorClient targets() {
        return new SimulatorClient(simulators.baseUrl());
    }

    public static Path runtime() {
        return Path.of(System.getProperty("toolgate.runtime"));
    }

    /** Rows in the journal: a refused request must leave this unchanged. */
    public static long journalRows() throws SQLException {
        return journalRows("toolgate");
    }

    /** The same for the journal in {@code database}, one of {@link #newDatabase}'s. */
    public static long journalRows(String database) throws SQLException {
        try (Connection c = connect(database);
             ResultSet count = c.createStatement().executeQuery("SELECT count(*) FROM agent_operation_log")) {
            count.next();
            return count.getLong(1);
        }
    }
}
