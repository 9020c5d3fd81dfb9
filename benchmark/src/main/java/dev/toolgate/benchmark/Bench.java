package dev.toolgate.benchmark;

import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.Simulators;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;

import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One run, one machine: starts PostgreSQL, the simulators and the gateway as the local run does, then at
 * concurrency 1, 8 and 32 measures (a) direct calls to the 1C simulator, (b) new operations through the
 * gateway, (c) replays of them, (d) the gateway's SQL by plain JDBC; then new-operation latency with the
 * journal at 10,000 and 1,000,000 operations. Prints a table, writes bench.json and bench.png.
 */
public final class Bench {

    private static final List<Integer> CONCURRENCY = List.of(1, 8, 32);
    private static final int CALLS = Integer.getInteger("bench.calls", 2000);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(System.getProperty("bench.out", "."));
        Path home = Files.createTempDirectory("toolgate-bench");
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setServerConfig("max_connections", "200").start();
             Simulators simulators = Simulators.start(0)) {
            String jdbcUrl = LocalStack.database(postgres, "bench");
            String adminToken = LocalStack.randomToken();
            Map<String, String> config = LocalStack.gatewayConfig(jdbcUrl, simulators.baseUrl());
            config.put("toolgate.admin.bootstrap-token", adminToken);
            config.put("toolgate.rate-limit.per-second", "1000000"); // measure the gateway, not its throttle
            config.put("toolgate.rate-limit.burst", "1000000");
            config.put("toolgate.reconcile.interval-seconds", "0");
            try (GatewayProcess gateway = new GatewayProcess(Path.of(System.getProperty("toolgate.runtime")),
                    LocalStack.freePort(), LocalStack.asEnvironment(config), home.resolve("gateway.log")).start().awaitReady()) {
                String token = agentToken(gateway.baseUrl(), adminToken);
                new Bench().run(out, gateway, simulators, jdbcUrl, token, postgres);
            }
        }
    }

    private void run(Path out, GatewayProcess gateway, Simulators simulators, String jdbcUrl, String token,
                     EmbeddedPostgres postgres) throws Exception {
        Map<String, List<Load.Result>> series = new LinkedHashMap<>();
        DatabaseLimit database = new DatabaseLimit(jdbcUrl);
        String tokenHash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        warmUp(gateway, simulators, token);
        for (int c : CONCURRENCY) {
            String run = UUID.randomUUID().toString().substring(0, 8);
            add(series, Load.run("direct to 1C", c, CALLS, i -> direct(simulators, run + "-" + i)));
            add(series, Load.run("gateway: new", c, CALLS, i -> submit(gateway, token, key(run, i), 201)));
            add(series, Load.run("gateway: replay", c, CALLS, i -> submit(gateway, token, key(run, i), 200)));
            add(series, Load.run("database limit", c, CALLS, i -> database.newOperation(tokenHash, payload())));
        }
        long peakKb = gateway.peakResidentKilobytes();
        List<Load.Result> growth = journalGrowth(gateway, token, postgres);
        Report.print(series, growth, peakKb);
        Report.json(series, growth, peakKb, out.resolve("bench.json"));
        Chart.draw(series, CONCURRENCY, out.resolve("bench.png"));
        System.out.println("wrote " + out.resolve("bench.json") + " and " + out.resolve("bench.png"));
    }

    /** New-operation latency at c=8 with the journal holding 10,000 and then 1,000,000 operations. */
    private List<Load.Result> journalGrowth(GatewayProcess gateway, String token, EmbeddedPostgres postgres) throws Exception {
        List<Load.Result> results = new ArrayList<>();
        for (int size : List.of(10_000, 1_000_000)) {
            try (Connection c = postgres.getDatabase("postgres", "bench").getConnection()) {
                c.createStatement().execute("INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash,"
                        + " payload, status, target_system, target_object_id, created_at, updated_at, completed_at)"
                        + " SELECT 'fill', 'fill:' || g, 'invoice.create', repeat('f', 64), '{\"order_id\":\"o\"}', 'succeeded',"
                        + " '1c', 'ref', now(), now(), now() FROM generate_series(1, " + size + " - (SELECT count(*)"
                        + " FROM agent_operation_log)) g ON CONFLICT DO NOTHING");
                c.createStatement().execute("ANALYZE agent_operation_log");
            }
            String run = UUID.randomUUID().toString().substring(0, 8);
            results.add(Load.run("journal " + size, 8, CALLS / 2, i -> submit(gateway, token, key(run, i), 201)));
        }
        return results;
    }

    private void warmUp(GatewayProcess gateway, Simulators simulators, String token) throws Exception {
        String run = "warm-" + UUID.randomUUID();
        Load.run("warm-up", 8, 500, i -> {
            submit(gateway, token, key(run, i), 201);
            submit(gateway, token, key(run, i), 200);
            direct(simulators, run + i);
        });
    }

    private static void submit(GatewayProcess gateway, String token, String key, int expected) throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api/v1/operations"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":"
                        + payload() + "}")).build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != expected) {
            throw new IllegalStateException("expected " + expected + ", got " + answer.statusCode() + ": " + answer.body());
        }
    }

    /** The document the 1C adapter sends, straight to the simulator. */
    private static void direct(Simulators simulators, String key) throws Exception {
        String body = "{\"Date\":\"2026-11-30T12:00:00\",\"Организация_Key\":\"" + Simulators.oneCOrganizationKey()
                + "\",\"ВалютаДокумента_Key\":\"5e1d7a3c-0643-4f00-8000-000000000643\",\"СуммаДокумента\":1250.00,"
                + "\"Комментарий\":\"Toolgate: заказ o\",\"" + Simulators.ONE_C_KEY_REQUISITE + "\":\"bench/" + key + "\"}";
        String auth = Base64.getEncoder().encodeToString((Simulators.ONE_C_USER + ":" + Simulators.ONE_C_PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(Simulators.oneCUrl(simulators.baseUrl()) + "/"
                        + URLEncoder.encode("Document_СчетНаОплатуПокупателю", StandardCharsets.UTF_8) + "?$format=json"))
                .header("Authorization", "Basic " + auth).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 201) {
            throw new IllegalStateException("direct call: " + answer.statusCode());
        }
    }

    private static String agentToken(String baseUrl, String adminToken) throws Exception {
        HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/principals"))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"principal_id\":\"bench-agent\",\"tenant\":\"bench\",\"roles\":[\"agent\"]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        return Json.createReader(new StringReader(created.body())).readObject().getString("token");
    }

    private static String key(String run, int i) {
        return "bench:invoice.create:" + run + "-" + i + ":v1";
    }

    private static String payload() {
        return "{\"order_id\":\"order-bench\",\"amount_minor\":125000,\"currency\":\"RUB\"}";
    }

    private static void add(Map<String, List<Load.Result>> series, Load.Result result) {
        series.computeIfAbsent(result.name(), n -> new ArrayList<>()).add(result);
        System.out.printf("  %-16s c=%-3d %8.0f ops/s  p50 %7.2f ms  p99 %7.2f ms%n", result.name(), result.concurrency(),
                result.throughput(), result.millis(50), result.millis(99));
    }

    static JsonObjectBuilder json(Load.Result r) {
        return Json.createObjectBuilder().add("name", r.name()).add("concurrency", r.concurrency()).add("calls", r.calls())
                .add("ops_per_second", Math.round(r.throughput())).add("p50_ms", r.millis(50)).add("p99_ms", r.millis(99))
                .add("max_ms", r.maxMillis());
    }

    static JsonArrayBuilder array(List<Load.Result> results) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        results.forEach(r -> array.add(json(r)));
        return array;
    }
}
