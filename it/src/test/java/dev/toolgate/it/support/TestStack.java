package dev.toolgate.it.support;

import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Starts, once per test JVM, a fresh PostgreSQL and the simulators on free ports; the gateway the Micro
 * suites share ({@link #microGateway}) on first use, and stops all three when the run ends.
 */
public class TestStack implements LauncherSessionListener {

    private static EmbeddedPostgres postgres;
    private static Simulators simulators;
    /** Lanes 2 and 3's own simulators ({@link Lane}), each started when a suite of its lane first needs them. */
    private static final Map<Integer, Simulators> LANE_SIMULATORS = new java.util.TreeMap<>();
    private static Map<String, String> gatewayConfig;
    /**
     * Guards the Micro suites' gateway's start: not the class's own lock, which hands the lanes their simulators. Held
     * through the gateway's boot, it kept lane 2 waiting for its simulators for that half minute as the run began.
     */
    private static final Object MICRO = new Object();
    /** The Micro suites' gateway's one start (a failed one is not tried again by every later suite: four minutes each). */
    private static CompletableFuture<GatewayProcess> microGatewayStart;
    /** That gateway's process as soon as it exists, ready or not, to be stopped as the run ends. */
    private static volatile GatewayProcess microGatewayProcess;
    private static String adminToken = LocalStack.randomToken();
    /** Set when this JVM runs its suites against a {@link StandingStack} instead of a stack of its own. */
    private static StandingStack standing;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (Boolean.getBoolean(StandingStack.ATTACH)) {
            standing = StandingStack.read();
            adminToken = standing.adminToken();
            gatewayConfig = configFor(standing.jdbcUrl("toolgate"));
            Credentials.serves(standing.microGateway(), gatewayConfig.get("toolgate.db.url"));
            return;
        }
        try {
            postgres = EmbeddedPostgres.builder().setServerConfig("max_connections", "300").start();
            simulators = Simulators.start(0);
            gatewayConfig = configFor(newDatabase("toolgate"));
        } catch (Exception e) {
            throw new IllegalStateException("the test stack did not start", e);
        }
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        try {
            discard(microGatewayProcess);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (simulators != null) {
            simulators.close();
        }
        synchronized (TestStack.class) {
            LANE_SIMULATORS.values().forEach(Simulators::close);
        }
        try {
            if (postgres != null) {
                postgres.close();
            }
        } catch (Exception e) {
            System.err.println("postgres did not stop cleanly: " + e);
        }
    }

    /**
     * The one gateway process every {@link MicroSuite} calls, started as the run begins when it holds a Micro suite
     * ({@link EarlyMicro}; else on first use) and stopped when the run ends: the WAR on Payara Micro with
     * {@link #gatewayConfig()}'s journal, and no background job, because those suites watch each call's effects and no
     * job may act between them. Its suites share nothing else: each makes its own keys and principals. A start that
     * failed is not tried again by every later suite (four minutes each).
     */
    public static String microGateway() throws IOException {
        if (standing != null) {
            return standing.microGateway();
        }
        CompletableFuture<GatewayProcess> start;
        synchronized (MICRO) {
            start = startMicroGateway();
        }
        try {
            return start.join().baseUrl();
        } catch (java.util.concurrent.CompletionException e) {
            throw new IOException("the Micro suites' gateway did not start in this run", e.getCause());
        }
    }

    /** Starts the Micro suites' gateway on a thread of its own, once (the caller holds {@link #MICRO}). */
    private static CompletableFuture<GatewayProcess> startMicroGateway() {
        if (microGatewayStart == null) {
            Map<String, String> config = new LinkedHashMap<>(gatewayConfig); // lane 1's simulators, whoever asks
            config.put("toolgate.reconcile.interval-seconds", "0");
            config.put("toolgate.reconcile.settle-seconds", "2");
            config.put("toolgate.reconcile.max-attempts", "2");
            CompletableFuture<GatewayProcess> started = new CompletableFuture<>();
            Thread starting = new Thread(() -> {
                try {
                    GatewayProcess gateway = startGateway(runtime(), LocalStack.freePort(), config, "micro-gateway");
                    microGatewayProcess = gateway;
                    started.complete(gateway.awaitReady()); // one given up on is stopped by awaitReady itself
                } catch (Throwable e) {
                    started.completeExceptionally(e);
                }
            }, "micro-gateway-start");
            starting.setDaemon(true);
            starting.start();
            microGatewayStart = started;
        }
        return microGatewayStart;
    }

    /**
     * Starts the Micro suites' gateway as the run begins, when it holds a {@link MicroSuite}: its boot then overlaps the
     * first suites of lane 1 (ConsoleIT, which needs its own gateway and Keycloak) instead of coming before them.
     */
    public static final class EarlyMicro implements TestExecutionListener {

        @Override
        public void testPlanExecutionStarted(TestPlan plan) {
            boolean needed = standing == null && gatewayConfig != null && plan.getRoots().stream()
                    .flatMap(root -> plan.getDescendants(root).stream()).map(test -> test.getSource().orElse(null))
                    .anyMatch(source -> source instanceof ClassSource type && MicroSuite.class.isAssignableFrom(type.getJavaClass()));
            if (needed) {
                synchronized (MICRO) {
                    startMicroGateway();
                }
            }
        }
    }

    /** A gateway process with {@code config} on a free port, started (not yet ready), logging to target/{@code log}.log. */
    public static GatewayProcess startGateway(Map<String, String> config, String log) throws IOException {
        return startGateway(LocalStack.freePort(), config, log);
    }

    /** A gateway process with {@code config}, started and ready to take calls. */
    public static GatewayProcess readyGateway(Map<String, String> config, String log) throws IOException {
        return readyGateway(runtime(), config, log);
    }

    /**
     * The same on the test-only WAR that mounts the MCP conformance suite's fixture tools beside the product's (module
     * mcp-fixtures; never the product WAR).
     */
    public static GatewayProcess readyFixtureGateway(Map<String, String> config, String log) throws IOException {
        return readyGateway(Path.of(System.getProperty("toolgate.runtime.mcp-fixtures")), config, log);
    }

    private static GatewayProcess readyGateway(Path runtime, Map<String, String> config, String log) throws IOException {
        GatewayProcess gateway = startGateway(runtime, LocalStack.freePort(), config, log);
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

    /**
     * Ends a suite's gateway once the suite is done with it, if its start got as far as making one: SIGKILL, not an
     * orderly stop. An orderly stop waits out the drain grace (a fixed wait in Micro's shutdown: 2.5 s of a 2 s grace
     * and the undeployment, measured) for calls in flight, and a suite that is done has none: its oracles have judged.
     * The orderly stop is tested where it is the behaviour under test (RecoveryIT's restart under load, RollingUpgradeIT's
     * drains, the local run's Ctrl+C), and used where something is read after it (SecretsSent's exported spans).
     */
    public static void discard(GatewayProcess gateway) throws InterruptedException {
        if (gateway != null) {
            gateway.kill();
        }
    }

    /** The same on {@code port}: a restarted gateway keeps its address. */
    public static GatewayProcess startGateway(int port, Map<String, String> config, String log) throws IOException {
        return startGateway(runtime(), port, config, log);
    }

    /** The same from another runtime folder (a {@code payara-micro.jar} and a {@code ROOT.war}): the previous release's, say. */
    public static GatewayProcess startGateway(Path runtime, int port, Map<String, String> config, String log) throws IOException {
        return startGateway(runtime, port, config, log, GatewayProcess.DRAIN);
    }

    /** The same, stopping in order within {@code drain} ({@link GatewayProcess#withDrain}). */
    public static GatewayProcess startGateway(Path runtime, int port, Map<String, String> config, String log, Duration drain)
            throws IOException {
        GatewayProcess gateway = new GatewayProcess(runtime, port, LocalStack.asEnvironment(config),
                Path.of("target", log + ".log").toAbsolutePath()).withJvmOptions(LocalStack.SHORT_LIVED_JVM).withDrain(drain);
        Credentials.serves(gateway.baseUrl(), config.get("toolgate.db.url"));
        SuiteTimings.started("gateway " + log);
        return gateway.start();
    }

    public static Map<String, String> gatewayConfig() {
        return gatewayConfig;
    }

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

    /** The gateway's settings for a journal in database {@code jdbcUrl}, against the simulators of the suite's lane. */
    public static Map<String, String> configFor(String jdbcUrl) {
        // every target over HTTPS with the run's private CA, so each end-to-end test also proves TLS
        Map<String, String> config = standingServesThisLane()
                ? new LinkedHashMap<>(LocalStack.gatewayConfig(jdbcUrl, standing.simulatorsHttpsUrl(), standing.caBundle()))
                : new LinkedHashMap<>(LocalStack.gatewayConfig(jdbcUrl, simulators().httpsBaseUrl(), simulators().tls().caBundle()));
        config.put("toolgate.admin.bootstrap-token", adminToken);
        return config;
    }

    public static String adminToken() {
        return adminToken;
    }

    /** A fresh database on the shared PostgreSQL, for a test class whose jobs must not see other classes' rows. */
    public static String newDatabase(String name) throws SQLException {
        SuiteTimings.started("database " + name);
        if (standing != null) {
            return standing.database(name);
        }
        return LocalStack.database(postgres, name);
    }

    public static Connection connect(String database) throws SQLException {
        return standing != null ? standing.connect(database) : postgres.getDatabase("postgres", database).getConnection();
    }

    /**
     * The simulators themselves, in this JVM: the shared ones, or those of the suite's own lane ({@link Lane}); the
     * shared ones are not here when the suites run against a {@link StandingStack}.
     */
    public static Simulators simulators() {
        if (Lane.Marker.here() != 1) {
            return laneSimulators(Lane.Marker.here());
        }
        if (standing != null) {
            throw new IllegalStateException("this suite needs the simulators in its own JVM (their TLS material or settings):"
                    + " run it without -D" + StandingStack.ATTACH);
        }
        return simulators;
    }

    private static synchronized Simulators laneSimulators(int lane) {
        Simulators own = LANE_SIMULATORS.get(lane);
        if (own == null) {
            try {
                own = Simulators.start(0);
            } catch (Exception e) {
                throw new IllegalStateException("lane " + lane + "'s simulators did not start", e);
            }
            LANE_SIMULATORS.put(lane, own);
            SuiteTimings.started("lane " + lane + "'s simulators");
        }
        return own;
    }

    /** Whether this suite's simulators are the standing stack's: lane 1's are, when the run attaches to one. */
    private static boolean standingServesThisLane() {
        return standing != null && Lane.Marker.here() == 1;
    }

    /** The simulators' base URL (their control API and each vendor's API under it), for the suite's lane. */
    public static String simulatorsUrl() {
        return standingServesThisLane() ? standing.simulatorsUrl() : simulators().baseUrl();
    }

    /** What {@link StandingStack} writes down for the test JVMs that attach to it. */
    static StandingStack describe() throws IOException {
        return new StandingStack(postgres.getPort(), simulators.baseUrl(), simulators.httpsBaseUrl(),
                simulators.tls().caBundle(), adminToken, microGateway());
    }

    /** Where the simulated YooKassa API lives, for a test that plays another client of the same shop. */
    public static String yooKassaUrl() {
        return Simulators.yooKassaUrl(simulatorsUrl());
    }

    public static SimulatorClient targets() {
        return new SimulatorClient(simulatorsUrl());
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
