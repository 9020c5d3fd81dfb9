package dev.toolgate.it.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Await;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.InstancePair;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * Each instance caches authenticated callers (for up to a minute by default); a rotation or revocation
 * made through one instance reaches the other's cache within moments, through the journal's
 * announcement of principal changes, not at the end of that minute. The two instances are the run's
 * {@link InstancePair}: its caller caches are as shipped, and nothing else of its settings matters here.
 */
@Lane(3) // the pair's lane, with TwoInstancesIT
@InstancePair.Shares
class RevocationAcrossInstancesIT {

    private static final Duration PROMPTLY = Duration.ofSeconds(5);
    private static InstancePair pair;
    private static GatewayProcess gatewayA;
    private static GatewayProcess gatewayB;

    @BeforeAll
    static void start() throws Exception {
        pair = InstancePair.get();
        gatewayA = pair.first;
        gatewayB = pair.second;
    }

    @AfterAll
    static void stop() throws Exception {
        InstancePair.release();
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
        for (String instance : List.of("a", "b")) {
            Await.await(() -> pair.linesSaying(instance, "a PostgreSQL session of its own: authenticated callers are cached") > 0,
                    "instance " + instance + " to say it caches", PROMPTLY);
            assertEquals(0, pair.linesSaying(instance, "connection pooler"), "instance " + instance);
        }
        String id = "unannounced-" + UUID.randomUUID().toString().substring(0, 8);
        String token = Credentials.issue(gatewayA.baseUrl(), id, "acme", "auditor");
        assertEquals(404, read(gatewayB, token), "B lets the token in (and now holds it in its cache)");

        try (Connection c = TestStack.connect(InstancePair.DATABASE); Statement session = c.createStatement();
             PreparedStatement delete = c.prepareStatement("DELETE FROM principal WHERE principal_id = ?")) {
            session.execute("SET session_replication_role = replica"); // no trigger fires: nothing is announced
            delete.setString(1, id);
            assertEquals(1, delete.executeUpdate());
        }

        assertEquals(404, read(gatewayB, token), "served from B's cache: nothing told it of the change");
    }

    /** 404 (no such key) when {@code gateway} lets {@code token} in, 401 when not. */
    private static int read(GatewayProcess gateway, String token) {
        return Credentials.admits(gateway.baseUrl(), token);
    }
}
