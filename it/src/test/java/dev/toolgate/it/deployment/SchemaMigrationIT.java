package dev.toolgate.it.deployment;

import static dev.toolgate.it.support.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import dev.toolgate.launcher.MigrateJournal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * For teams that forbid schema changes at start-up: a gateway with {@code toolgate.db.migrate-at-start=false}
 * on an empty database is alive but not ready, and the documented migration command makes it ready.
 */
class SchemaMigrationIT {

    private static Map<String, String> config;
    private static GatewayProcess gateway;

    @BeforeAll
    static void start() throws Exception {
        config = TestStack.configFor(TestStack.newDatabase("unmigrated"));
        config.put("toolgate.db.migrate-at-start", "false");
        config.put("toolgate.reconcile.interval-seconds", "0");
        config.put("toolgate.retention.purge-interval-seconds", "0");
        gateway = TestStack.startGateway(config, "unmigrated-gateway");
        await(() -> status("/api/health/live") == 200, "the gateway to be alive");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
    }

    @Test
    void isNotReadyUntilTheMigrationCommandRan() throws Exception {
        assertEquals(503, status("/api/health/ready"), "the journal has no schema yet");

        System.setProperty("toolgate.db.url", config.get("toolgate.db.url"));
        System.setProperty("toolgate.db.user", config.get("toolgate.db.user"));
        System.setProperty("toolgate.db.password", config.get("toolgate.db.password"));
        try {
            MigrateJournal.main(new String[0]);
        } finally {
            System.clearProperty("toolgate.db.url");
            System.clearProperty("toolgate.db.user");
            System.clearProperty("toolgate.db.password");
        }
        assertEquals(200, status("/api/health/ready"));
    }

    @Test
    void aGatewayThatCannotDeploySaysSoAtOnceInsteadOfTimingOut() throws Exception {
        Map<String, String> broken = new LinkedHashMap<>(config);
        broken.put("toolgate.db.url", "jdbc:postgresql://127.0.0.1:" + LocalStack.freePort() + "/nothing-listens-here");
        broken.put("toolgate.db.migrate-at-start", "true");
        Instant started = Instant.now();
        try (GatewayProcess doomed = TestStack.startGateway(broken, "undeployable-gateway")) {
            IOException failed = assertThrows(IOException.class, doomed::awaitReady);
            assertTrue(failed.getMessage().contains("did not deploy"), failed.getMessage());
            assertTrue(ProcessHandle.of(doomed.pid()).map(p -> !p.isAlive()).orElse(true),
                    "a server given up on is stopped, not left holding its port for the next suite");
        }
        assertTrue(Duration.between(started, Instant.now()).toSeconds() < 120,
                "told within two minutes, not after the four-minute start-up timeout");
    }

    /** A probe's status, as a load balancer sees it: no token; -1 while nothing listens. */
    private static int status(String path) {
        try {
            return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException notUp) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
