package dev.toolgate.launcher;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code mvn -P run -pl launcher -am package -DskipTests}: the whole product, each part its own process — durable
 * PostgreSQL (data in {@code .toolgate/pgdata}), the simulators, the gateway on Payara Micro, Keycloak for the console —
 * with demo principals, demo people and, on an empty journal, {@link DemoWork}.
 */
public final class LocalRun {

    /** The line a person (or a test) waits for: the console's address follows it. */
    public static final String CONSOLE_READY = "The console is ready: ";
    private static final Duration KEYCLOAK_READY = Duration.ofSeconds(240); // its first start builds itself: minutes on 2 cores

    private LocalRun() {
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(System.getProperty("toolgate.home", ".toolgate")).toAbsolutePath();
        int port = Integer.getInteger("toolgate.port", 8080);
        int simulatorPort = Integer.getInteger("toolgate.simulator.port", 18090);
        int keycloakPort = Integer.getInteger("toolgate.keycloak.port", 18080);
        long started = System.nanoTime();
        LocalStack.requireFree(port, "toolgate.port");

        EmbeddedPostgres postgres = LocalStack.durablePostgres(home.resolve("pgdata"), Integer.getInteger("toolgate.db.port", 15432));
        String jdbcUrl = LocalStack.database(postgres, "toolgate");
        Process simulators = LocalStack.simulators(simulatorPort, home.resolve("simulators.log"));
        String simulatorsUrl = "http://127.0.0.1:" + simulatorPort;
        String adminToken = LocalStack.randomToken(); // new each run: only this process ever sees it
        Map<String, String> config = LocalStack.gatewayConfig(jdbcUrl, simulatorsUrl);
        config.put("toolgate.admin.bootstrap-token", adminToken);

        // the console's identity provider starts beside the gateway, which is configured for it from the start:
        // until it answers, the console says so (503); the API does not wait for it
        List<String> consoleMissing = new ArrayList<>();
        LocalKeycloak keycloak = startKeycloak(home, keycloakPort, consoleMissing);
        if (keycloak != null) {
            config.put("toolgate.console.oidc.provider-uri", keycloak.issuer());
            config.put("toolgate.console.oidc.client-id", LocalKeycloak.CLIENT_ID);
            config.put("toolgate.console.oidc.client-secret", keycloak.clientSecret());
        }
        GatewayProcess gateway = gateway(port, config, home);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                gateway.close();
                simulators.destroy();
                if (keycloak != null) {
                    keycloak.close();
                }
                postgres.close();
            } catch (Exception e) {
                System.err.println("shutdown: " + e);
            }
        }));
        gateway.start().awaitReady();
        LocalStack.subscribeNotifications(simulatorsUrl, port);
        Map<String, String> tokens = DemoPrincipals.issue(gateway.baseUrl(), adminToken);

        System.out.printf("%nToolgate is ready in %.1f s: %s/%n", (System.nanoTime() - started) / 1e9, gateway.baseUrl());
        System.out.println("  API:        " + gateway.baseUrl() + "/api/v1/operations  (described at " + gateway.baseUrl() + "/api/openapi.yaml)");
        System.out.println("  MCP:        " + gateway.baseUrl() + "/mcp");
        System.out.println("  journal:    " + jdbcUrl + " (user postgres; durable, data in " + home.resolve("pgdata") + ")");
        System.out.println("  simulators: " + simulatorsUrl + "/_control/…  (1C OData at " + simulatorsUrl + "/1c/demo/odata/standard.odata;"
                + " YooKassa and Bitrix24 notify " + gateway.baseUrl() + "/notifications/…)");
        System.out.println("  logs:       " + home.resolve("gateway.log") + ", " + home.resolve("simulators.log")
                + (keycloak != null ? ", " + home.resolve("keycloak.log") : ""));
        System.out.println("  demo principals (tenant demo; tokens are new each run):");
        tokens.forEach((id, token) -> System.out.printf("    %-14s %s%n", id, token));
        if (Boolean.parseBoolean(System.getProperty("toolgate.demo-work", "true")) && DemoWork.journalIsEmpty(jdbcUrl)) {
            System.out.println("  demo work, made through the API (-Dtoolgate.demo-work=false makes none):");
            try {
                for (String line : new DemoWork(gateway.baseUrl(), simulatorsUrl, tokens).make()) {
                    System.out.println("    " + line);
                }
            } catch (Exception e) { // something to look at, not something the run needs
                System.out.println("    not all of it was made: " + e.getMessage());
            }
        }
        System.out.printf("%ncurl -i %s/api/v1/operations -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' \\%n"
                + "  -H 'Idempotency-Key: test:invoice.create:order-demo-1:v1' \\%n"
                + "  -d '{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"order-demo-1\","
                + "\"amount_minor\":125000,\"currency\":\"RUB\"}}'%n%n", gateway.baseUrl(), tokens.get("demo-agent"));

        if (keycloak == null) {
            System.out.println("The console is off: " + String.join("; ", consoleMissing) + ".");
        } else if (keycloak.awaitReady(KEYCLOAK_READY)) {
            System.out.println(CONSOLE_READY + gateway.baseUrl() + "/console/");
            System.out.println("  people (tenant demo; passwords are new each run), signing in at " + keycloak.issuer() + ":");
            keycloak.passwords().forEach((person, password) -> System.out.printf("    %-14s %s%n", person, password));
        } else {
            System.out.println("The console's identity provider did not start within " + KEYCLOAK_READY.toSeconds()
                    + " s: see " + home.resolve("keycloak.log") + ". The API and MCP are unaffected.");
        }
        System.out.println("Ctrl+C stops everything.");
        Thread.currentThread().join();
    }

    /** The gateway on Payara Micro 6, or with {@code -Dtoolgate.micro=7} on Micro 7 and a Java 21 or newer ({@link Jdks}). */
    private static GatewayProcess gateway(int port, Map<String, String> config, Path home) throws IOException {
        boolean seven = "7".equals(System.getProperty("toolgate.micro", "6"));
        Path runtime = Path.of(System.getProperty(seven ? "toolgate.runtime.micro7" : "toolgate.runtime"));
        GatewayProcess gateway = new GatewayProcess(runtime, port, LocalStack.asEnvironment(config), home.resolve("gateway.log"))
                .withJvmOptions(LocalStack.SHORT_LIVED_JVM);
        if (!seven) {
            return gateway;
        }
        List<Path> tried = new ArrayList<>();
        Path java = Jdks.find("toolgate.micro7.java-home", feature -> feature >= 21, tried).orElseThrow(() -> new IllegalStateException(
                "Payara Micro 7 needs Java 21 or newer and none was found (tried " + tried + "): install one (Debian:"
                        + " apt-get install openjdk-25-jdk-headless, or Temurin 25), or name it with -Dtoolgate.micro7.java-home=<JDK>"));
        System.out.println("The gateway runs on Payara Micro 7 (Jakarta EE 11) with " + java);
        return gateway.withJava(java);
    }

    /** Keycloak for the console, or null with what is missing said in {@code missing}. */
    private static LocalKeycloak startKeycloak(Path home, int port, List<String> missing) throws Exception {
        String keycloakHome = System.getProperty("toolgate.keycloak.home", "");
        if (keycloakHome.isBlank() || !Files.isRegularFile(Path.of(keycloakHome, "bin", "kc.sh"))) {
            missing.add("no Keycloak at toolgate.keycloak.home=" + keycloakHome + " (the launcher's build unpacks it: run the README's command)");
            return null;
        }
        List<Path> tried = new ArrayList<>();
        Optional<Path> java = LocalKeycloak.java(tried);
        if (java.isEmpty()) {
            missing.add("its identity provider, Keycloak, needs a Java 25 JDK and none was found (tried " + tried
                    + "): install one (Debian: apt-get install openjdk-25-jdk-headless, or Temurin 25), or name it with"
                    + " -Dtoolgate.keycloak.java-home=<JDK>");
            return null;
        }
        return LocalKeycloak.start(Path.of(keycloakHome), java.get(), port, home.resolve("keycloak.log"));
    }
}
