package dev.toolgate.it.reconciliation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Await;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.PgBouncer;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;

/**
 * The fault matrix with PgBouncer in transaction pooling mode between the gateway and its journal, as teams run a
 * pooler: every statement of the journal through it — the capture, the fenced writes, the row locks and the reconcile
 * claim's {@code SKIP LOCKED}, the migrations, the batch job's repository. Its outcome is judged as the matrix's own:
 * every operation settled, no key with two objects at its target, no effect unaccounted for. The caller cache's
 * LISTEN cannot work through a transaction pooler: the gateway finds PgBouncer to be one and turns the cache off by
 * itself (PrincipalChangeListener, with the default {@code toolgate.auth.cache-seconds}), so a revocation takes effect
 * at once. PgBouncer's own counts show that the journal's traffic went through it.
 */
@Lane(3)
class FaultMatrixThroughPgBouncerIT extends FaultMatrix {

    private static final String DATABASE = "matrix_pgbouncer";
    private static final String LOG = "matrix-pgbouncer-gateway";
    private static final String POOLER_FOUND = "the journal is reached through a connection pooler";
    private static PgBouncer pgBouncer;
    private static GatewayProcess gateway;
    /** Where this run's gateway starts writing in its log, which earlier runs' gateways appended to. */
    private static long logStart;

    @BeforeAll
    static void start() throws Exception {
        pgBouncer = PgBouncer.inFrontOf(TestStack.newDatabase(DATABASE));
        Path log = logFile();
        logStart = Files.exists(log) ? Files.size(log) : 0;
        // no setting for the caller cache: the gateway is to find the pooler itself (docs/operations.md)
        gateway = matrixGateway(pgBouncer.jdbcUrl(), LOG);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            TestStack.discard(gateway);
        } finally {
            if (pgBouncer != null) {
                pgBouncer.close();
            }
        }
    }

    /**
     * The gateway found PgBouncer a pooler, and said so in one line: PgBouncer counted the gateway's transactions, and
     * a request made now is counted too (it reads its principal through the journal).
     */
    @Test
    void theJournalIsReachedThroughPgBouncerWhichTheGatewayFindsAPooler() throws Exception {
        Await.await(() -> linesSaying(POOLER_FOUND) > 0, "the gateway to log that it found a pooler", Duration.ofSeconds(10));
        assertEquals(1, linesSaying(POOLER_FOUND), "said once");
        assertEquals(0, linesSaying("authenticated callers are cached"), "the cache never on");

        long before = transactionsCounted();
        assertTrue(before > 0, "PgBouncer counted the gateway's start: " + pgBouncer.stats());
        String token = Credentials.issue(gateway.baseUrl(), "counted-" + UUID.randomUUID().toString().substring(0, 8), "acme", "auditor");
        assertEquals(404, Credentials.admits(gateway.baseUrl(), token));
        assertTrue(transactionsCounted() > before, "PgBouncer counted the requests' transactions: " + pgBouncer.stats());
    }

    /**
     * A principal deleted in the journal by someone else, its announcement suppressed, is refused at once: the gateway
     * found the pooler and reads the principal on every call, with no setting telling it to. Were it caching, the
     * token would be let in for a minute more (its own announcement through PgBouncer, when it came, was luck).
     */
    @Test
    void aPrincipalRevokedElsewhereIsRefusedAtOnceThoughNoAnnouncementComesThrough() throws Exception {
        String id = "pooled-" + UUID.randomUUID().toString().substring(0, 8);
        String token = Credentials.issue(gateway.baseUrl(), id, "acme", "auditor");
        assertEquals(404, Credentials.admits(gateway.baseUrl(), token), "let in (and, were the cache on, remembered)");
        assertEquals(404, Credentials.admits(gateway.baseUrl(), token));

        try (Connection c = TestStack.connect(DATABASE); Statement session = c.createStatement();
             PreparedStatement revoke = c.prepareStatement("DELETE FROM principal WHERE principal_id = ?")) {
            session.execute("SET session_replication_role = replica"); // no trigger fires: nothing is announced
            revoke.setString(1, id);
            assertEquals(1, revoke.executeUpdate());
        }

        assertEquals(401, Credentials.admits(gateway.baseUrl(), token), "the revoked token refused on the next request");
    }

    private static long transactionsCounted() throws IOException {
        return Long.parseLong(pgBouncer.stats().getOrDefault("total_xact_count", "0"));
    }

    private static long linesSaying(String words) throws IOException {
        byte[] all = Files.readAllBytes(logFile());
        String written = new String(all, (int) logStart, all.length - (int) logStart, StandardCharsets.ISO_8859_1);
        return written.lines().filter(line -> line.contains(words)).count();
    }

    private static Path logFile() {
        return Path.of("target", LOG + ".log");
    }

    @Override
    protected GatewayProcess gateway() {
        return gateway;
    }

    @Override
    protected String database() {
        return DATABASE;
    }
}
