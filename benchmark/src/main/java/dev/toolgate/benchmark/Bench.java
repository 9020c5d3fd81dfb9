package dev.toolgate.benchmark;

import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run, one machine: PostgreSQL as durable as in production, the simulators and the gateway (the floor endpoints
 * deployed beside it), each its own process, measured side by side ({@link Measurements}); prints a table and the
 * goals, writes bench.json and bench.png.
 */
public final class Bench {

    static final String DATABASE = "bench";
    private static final List<String> SETTINGS = List.of("server_version", "fsync", "synchronous_commit", "full_page_writes",
            "wal_sync_method", "shared_buffers", "max_connections", "commit_delay", "commit_siblings");

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.chosen();
        Path out = Path.of(System.getProperty("bench.out", "."));
        Path runtime = Path.of(System.getProperty("toolgate.runtime"));
        Path home = Files.createTempDirectory("toolgate-bench");
        try (EmbeddedPostgres postgres = productionLike()) {
            Map<String, String> settings = settings(postgres);
            System.out.println((length.isQuick() ? "QUICK run (figures mean little)" : "full run") + "; PostgreSQL " + settings);
            String jdbcUrl = LocalStack.database(postgres, DATABASE);
            LocalStack.database(postgres, Peers.DBOS_DATABASE);
            Path floor = FloorWar.write(home, "127.0.0.1", postgres.getPort(), DATABASE);
            String adminToken = LocalStack.randomToken();
            try (SimulatorProcess simulators = new SimulatorProcess(LocalStack.freePort(), home.resolve("simulators.log"));
                 GatewayProcess gateway = new GatewayProcess(runtime, LocalStack.freePort(),
                         LocalStack.asEnvironment(gatewayConfig(jdbcUrl, simulators.url(), adminToken, length)),
                         home.resolve("gateway.log")).alsoDeploying(floor).withJvmOptions(jvmOptions(length))
                         .withServerOptions(microOptions()).start().awaitReady();
                 Connection admin = postgres.getPostgresDatabase().getConnection();
                 Connection journal = postgres.getDatabase("postgres", DATABASE).getConnection();
                 DatabaseLimit database = new DatabaseLimit(jdbcUrl, 32)) {
                long idleKb = gateway.residentKilobytes();
                Map<String, String> config = gatewayConfig(jdbcUrl, simulators.url(), adminToken, length);
                Requests requests = new Requests(simulators.url());
                String token = requests.token(gateway.baseUrl(), adminToken, "bench-agent", "agent");
                String operatorToken = requests.token(gateway.baseUrl(), adminToken, "bench-operator", "operator");
                Meter meter = new Meter(List.of(ProcessCpu.of("gateway", List.of(gateway.pid())),
                        ProcessCpu.tree("postgres", postmaster(journal)), ProcessCpu.of("simulators", List.of(simulators.pid())),
                        ProcessCpu.of("load generator", List.of(ProcessHandle.current().pid()))),
                        new DatabaseActivity(admin, DATABASE));
                Measurements run = new Measurements(length, meter, requests, gateway, token, database, journal,
                        simulators);
                run.all(() -> new GatewayProcess(runtime, LocalStack.freePort(), LocalStack.asEnvironment(config),
                        home.resolve("gateway-2.log")).withJvmOptions(jvmOptions(length)).withServerOptions(microOptions())
                        .start().awaitReady(),
                        endpoint -> new GatewayProcess(runtime, LocalStack.freePort(), LocalStack.asEnvironment(traced(config, endpoint)),
                                home.resolve("gateway-traced.log")).withJvmOptions(jvmOptions(length))
                                .start().awaitReady(), operatorToken,
                        new Measurements.PeerSetup(home, postgres.getPort(), Path.of(System.getProperty("bench.restate.server",
                                "target/restate/node_modules/@restatedev/restate-server-linux-x64/bin/restate-server")), admin));
                Results results = run.results(settings, idleKb, gateway.peakResidentKilobytes());
                Report.print(results);
                Report.json(results, out.resolve("bench.json"));
                Chart.draw(results.closedLoop(), out.resolve("bench.png"));
                System.out.println("wrote " + out.resolve("bench.json") + " and " + out.resolve("bench.png") + "; logs in " + home);
            }
        }
    }

    /**
     * The full run measures the gateway as it ships, on the JVM's defaults (C2 pays in a long run under load); the quick
     * run only shows the benchmark works, so its gateways start on the test suites' cheaper short-lived JVM options.
     */
    private static List<String> jvmOptions(RunLength length) {
        List<String> options = new ArrayList<>(length.isQuick() ? LocalStack.SHORT_LIVED_JVM : List.of());
        // -Dbench.gateway.jvm="<option> <option>": the gateway JVM's own options for an experiment (say, a GC log); the run says so
        String extra = System.getProperty("bench.gateway.jvm", "").trim();
        if (!extra.isEmpty()) {
            options.addAll(List.of(extra.split("\\s+")));
            System.out.println("gateway JVM options for this run: " + extra);
        }
        return options;
    }

    /** -Dbench.gateway.micro="<option> <option>": Payara Micro's own options for an experiment (its HTTP threads); the run says so. */
    private static List<String> microOptions() {
        String options = System.getProperty("bench.gateway.micro", "").trim();
        if (options.isEmpty()) {
            return List.of();
        }
        System.out.println("Payara Micro options for this run: " + options);
        return List.of(options.split("\\s+"));
    }

    /** The embedded server's defaults turn durability off; a benchmark of a journal must have it on. */
    private static EmbeddedPostgres productionLike() throws Exception {
        // the quick run starts it at nice 10 beside the it module's suites: the library's 10 s wait for a start is too short there
        EmbeddedPostgres.Builder server = EmbeddedPostgres.builder()
                .setPGStartupWait(Duration.ofMinutes(2))
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .setServerConfig("max_connections", "200")
                .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                .setServerConfig("pg_stat_statements.track_utility", "on")
                .setServerConfig("pg_stat_statements.track_planning", "on");
        // -Dbench.postgres=<setting>=<value>,…: server settings for an experiment (say, commit_delay); SHOW prints them
        for (String setting : System.getProperty("bench.postgres", "").split(",")) {
            int eq = setting.indexOf('=');
            if (eq > 0) {
                server.setServerConfig(setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
            }
        }
        return server.start();
    }

    /** The settings as the server reports them (SHOW), not as they were asked for. */
    private static Map<String, String> settings(EmbeddedPostgres postgres) throws Exception {
        Map<String, String> values = new LinkedHashMap<>();
        try (Connection c = postgres.getPostgresDatabase().getConnection()) {
            for (String name : SETTINGS) {
                try (ResultSet r = c.createStatement().executeQuery("SHOW " + name)) {
                    r.next();
                    values.put(name, r.getString(1));
                }
            }
        }
        return values;
    }

    private static Map<String, String> gatewayConfig(String jdbcUrl, String simulatorsUrl, String adminToken, RunLength length) {
        Map<String, String> config = LocalStack.gatewayConfig(jdbcUrl, simulatorsUrl);
        if (length.isQuick()) {
            // in CI (QuickBenchRunIT) a loaded host's PostgreSQL login can outlast the shipped 2 s connect timeout
            config.put("toolgate.db.connect-timeout-seconds", "15");
        }
        config.put("toolgate.admin.bootstrap-token", adminToken);
        config.put("toolgate.rate-limit.per-second", "1000000"); // measure the gateway, not its throttle
        config.put("toolgate.rate-limit.burst", "1000000");
        config.put("toolgate.reconcile.interval-seconds", "0"); // the backlog series starts the job itself
        config.put("toolgate.retention.purge-interval-seconds", "0");
        // -Dbench.gateway=<setting>=<value>,…: gateway settings for an experiment (say, the replay memory off); the run says so
        for (String setting : System.getProperty("bench.gateway", "").split(",")) {
            int equals = setting.indexOf('=');
            if (equals > 0) {
                config.put(setting.substring(0, equals).strip(), setting.substring(equals + 1).strip());
                System.out.println("gateway setting for this run: " + setting.strip());
            }
        }
        return config;
    }

    /** {@code config} with tracing on, exported as docs/telemetry.md says (batched, every 5 s by default) to {@code endpoint}. */
    private static Map<String, String> traced(Map<String, String> config, String endpoint) {
        Map<String, String> traced = new LinkedHashMap<>(config);
        traced.put("otel.sdk.disabled", "false");
        traced.put("otel.service.name", "toolgate");
        traced.put("otel.exporter.otlp.endpoint", endpoint);
        traced.put("otel.exporter.otlp.protocol", "http/protobuf");
        return traced;
    }

    /** The PostgreSQL server process: the parent of the backend serving this connection. */
    private static long postmaster(Connection c) throws Exception {
        try (ResultSet r = c.createStatement().executeQuery("SELECT pg_backend_pid()")) {
            r.next();
            String stat = Files.readString(Path.of("/proc", r.getString(1), "stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
        }
    }
}
