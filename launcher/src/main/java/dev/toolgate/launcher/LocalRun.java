package dev.toolgate.launcher;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.nio.file.Path;
import java.util.Map;

/**
 * {@code mvn -P run -pl launcher -am package -DskipTests}: the gateway on the embedded default, with
 * PostgreSQL data kept in {@code .toolgate/pgdata} across restarts. Ctrl+C stops all three processes.
 */
public final class LocalRun {

    private LocalRun() {
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(".toolgate").toAbsolutePath();
        int port = Integer.getInteger("toolgate.port", 8080);
        int simulatorPort = Integer.getInteger("toolgate.simulator.port", 18090);
        long started = System.nanoTime();
        LocalStack.requireFree(port, "toolgate.port");

        EmbeddedPostgres postgres = LocalStack.postgres(home.resolve("pgdata"), Integer.getInteger("toolgate.db.port", 15432));
        String jdbcUrl = LocalStack.database(postgres, "toolgate");
        Process simulators = LocalStack.simulators(simulatorPort, home.resolve("simulators.log"));
        String simulatorsUrl = "http://127.0.0.1:" + simulatorPort;
        String adminToken = LocalStack.randomToken(); // new each run: only this process ever sees it
        Map<String, String> config = LocalStack.gatewayConfig(jdbcUrl, simulatorsUrl);
        config.put("toolgate.admin.bootstrap-token", adminToken);
        GatewayProcess gateway = new GatewayProcess(Path.of(System.getProperty("toolgate.runtime")), port,
                LocalStack.asEnvironment(config), home.resolve("gateway.log"));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                gateway.close();
                simulators.destroy();
                postgres.close();
            } catch (Exception e) {
                System.err.println("shutdown: " + e);
            }
        }));
        gateway.start().awaitReady();
        Map<String, String> tokens = DemoPrincipals.issue(gateway.baseUrl(), adminToken);

        System.out.printf("%nToolgate is ready in %.1f s: %s/api/v1/operations%n", (System.nanoTime() - started) / 1e9, gateway.baseUrl());
        System.out.println("  journal:    " + jdbcUrl + " (user postgres; data in " + home.resolve("pgdata") + ")");
        System.out.println("  simulators: " + simulatorsUrl + "/_control/…  (1C OData at " + simulatorsUrl + "/1c/demo/odata/standard.odata)");
        System.out.println("  logs:       " + home.resolve("gateway.log") + ", " + home.resolve("simulators.log"));
        System.out.println("  demo principals (tenant demo; tokens are new each run):");
        tokens.forEach((id, token) -> System.out.printf("    %-14s %s%n", id, token));
        System.out.printf("%ncurl -i %s/api/v1/operations -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' \\%n"
                + "  -H 'Idempotency-Key: test:invoice.create:order-demo-1:v1' \\%n"
                + "  -d '{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"order-demo-1\","
                + "\"amount_minor\":125000,\"currency\":\"RUB\"}}'%n%n", gateway.baseUrl(), tokens.get("demo-agent"));
        System.out.println("Ctrl+C stops everything.");
        Thread.currentThread().join();
    }
}
