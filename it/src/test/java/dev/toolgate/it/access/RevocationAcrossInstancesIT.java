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

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
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
    private static final Map<String, Long> LOG_STARTS = new HashMap<>();

    @BeforeAll
    static void start() throws Exception {
        for (String log : List.of("revocation-a", "revocation-b")) { // earlier runs' gateways appended to the same logs
            Path file = Path.of("target", log + ".log");
            LOG_STARTS.put(log, Files.exists(file) ? Files.size(file) : 0L);
        }
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase("revocation"));
        // one after the other, as AdversarialRunIT: two booting at once on two loaded cores starved one past the
        // journal's 2 s login at deployment (load average 25, "Connection attempt timed out")
        gatewayA = TestStack.startGateway(config, "revocation-a").awaitReady();
        gatewayB = TestStack.startGateway(config, "revocation-b").awaitReady();
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gatewayA);
        TestStack.discard(gatewayB);
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

    /**
     * On connections of their own to PostgreSQL both instances find no pooler and cache: a principal deleted with its
     * announcement silenced is still let in by the instance that cached it (until its entry expires, the bound for a
     * change never announced), where behind PgBouncer it is refused at once (FaultMatrixThroughPgBouncerIT).
     */
    @Test
    void bothInstancesFindTheirJournalConnectionsDirectAndCache() throws Exception {
        for (String log : List.of("revocation-a", "revocation-b")) {
            Await.await(() -> linesSaying(log, "a PostgreSQL session of its own: authenticated callers are cached") > 0,
                    log + " to say it caches", PROMPTLY);
            assertEquals(0, linesSaying(log, "connection pooler"), log);
        }
        String id = "unannounced-" + UUID.randomUUID().toString().substring(0, 8);
        String token = Credentials.issue(gatewayA.baseUrl(), id, "acme", "auditor");
        assertEquals(404, read(gatewayB, token), "B lets the token in (and now holds it in its cache)");

        try (Connection c = TestStack.connect("revocation"); Statement session = c.createStatement();
             PreparedStatement delete = c.prepareStatement("DELETE FROM principal WHERE principal_id = ?")) {
            session.execute("SET session_replication_role = replica"); // no trigger fires: nothing is announced
            delete.setString(1, id);
            assertEquals(1, delete.executeUpdate());
        }

        assertEquals(404, read(gatewayB, token), "served from B's cache: nothing told it of the change");
    }

    private static long linesSaying(String log, String words) throws IOException {
        Path file = Path.of("target", log + ".log");
        byte[] all = Files.readAllBytes(file);
        int from = LOG_STARTS.getOrDefault(log, 0L).intValue();
        return new String(all, from, all.length - from, StandardCharsets.ISO_8859_1).lines().filter(line -> line.contains(words)).count();
    }

    /** 404 (no such key) when {@code gateway} lets {@code token} in, 401 when not. */
    private static int read(GatewayProcess gateway, String token) {
        return Credentials.admits(gateway.baseUrl(), token);
    }
}
