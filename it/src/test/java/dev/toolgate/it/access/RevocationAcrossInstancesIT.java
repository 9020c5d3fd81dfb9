package dev.toolgate.it.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Await;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * Each instance caches authenticated callers (for up to a minute by default); a rotation or revocation
 * made through one instance reaches the other's cache within moments, through the journal's
 * announcement of principal changes, not at the end of that minute.
 */
@Lane(3)
class RevocationAcrossInstancesIT {

    private static final Duration PROMPTLY = Duration.ofSeconds(5);
    private static GatewayProcess gatewayA;
    private static GatewayProcess gatewayB;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase("revocation"));
        // one after the other, as AdversarialRunIT: two booting at once on two loaded cores starved one past the
        // journal's 2 s login at deployment (load average 25, "Connection attempt timed out")
        gatewayA = TestStack.startGateway(config, "revocation-a").awaitReady();
        gatewayB = TestStack.startGateway(config, "revocation-b").awaitReady();
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.stop(gatewayA);
        TestStack.stop(gatewayB);
    }

    @Test
    void aTokenRotatedOnOneInstanceIsRefusedOnTheOtherAtOnce() throws Exception {
        String id = "rotated-" + UUID.randomUUID().toString().substring(0, 8);
        String old = Credentials.issue(gatewayA.baseUrl(), id, "acme", "auditor");
        assertEquals(404, read(gatewayB, old), "B lets the token in (and now holds it in its cache)");
        assertEquals(404, read(gatewayB, old));

        String rotated = Credentials.issue(gatewayA.baseUrl(), id, "acme", "auditor"); // exists: rotates, through A

        Await.await(() -> read(gatewayB, old) == 401, "B to refuse the old token", PROMPTLY);
        assertEquals(404, read(gatewayB, rotated), "the new token works on B");
    }

    @Test
    void aTokenRevokedOnOneInstanceIsRefusedOnTheOtherAtOnce() throws Exception {
        String id = "revoked-" + UUID.randomUUID().toString().substring(0, 8);
        String token = Credentials.issue(gatewayA.baseUrl(), id, "acme", "auditor");
        assertEquals(404, read(gatewayB, token));
        assertEquals(404, read(gatewayA, token));

        Agent.Answer revoked = new Agent(gatewayA.baseUrl()).sendAnonymously(HttpRequest.newBuilder(
                URI.create(gatewayA.baseUrl() + "/api/v1/principals/" + id)).header("Authorization", "Bearer " + TestStack.adminToken()).DELETE());
        assertEquals(204, revoked.status());

        assertEquals(401, read(gatewayA, token), "refused at once where it was revoked");
        Await.await(() -> read(gatewayB, token) == 401, "B to refuse the revoked token", PROMPTLY);
    }

    /** 404 (no such key) when {@code gateway} lets {@code token} in, 401 when not. */
    private static int read(GatewayProcess gateway, String token) {
        return Credentials.admits(gateway.baseUrl(), token);
    }
}
