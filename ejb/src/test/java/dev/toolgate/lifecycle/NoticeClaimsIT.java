package dev.toolgate.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.journal.JournalDatabase;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A notification's claim on real PostgreSQL: an unknown operation is leased for a look-up, with the notification's
 * receipt journaled before the look-up's own lease event; every refusal writes nothing at all, row or event.
 */
class NoticeClaimsIT {

    private static final String HASH = "e".repeat(64);
    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final String RECEIPT = "yookassa payment.succeeded for payment p-1 (receipt n-1)";

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();
    private static EntityManagerFactory unit;

    @BeforeAll
    static void migrate() throws Exception {
        unit = JournalDatabase.persistenceUnit(database.dataSource());
        Logger.getLogger("dev.toolgate.operations").setLevel(Level.OFF);
    }

    @AfterAll
    static void stop() throws Exception {
        unit.close();
    }

    @Test
    void anUnknownOperationIsLeasedForALookUpWithTheReceiptJournaledFirst() throws SQLException {
        String key = row("unknown", "NULL", "yookassa", null);

        NoticeClaims.Claim.Leased leased = assertInstanceOf(NoticeClaims.Claim.Leased.class, claim(key, "yookassa"));

        assertEquals(2, leased.operation().leaseEpoch());
        assertEquals("unknown true 2", state(key), "a live look-up lease, the next epoch");
        assertEquals(List.of("notified: " + RECEIPT, "reconcile_started"), events(key));
    }

    @Test
    void aSettledOperationIsRefusedAndNothingIsWritten() throws SQLException {
        String key = row("succeeded", "NULL", "yookassa", "p-2");
        String before = state(key);

        assertEquals("settled", assertInstanceOf(NoticeClaims.Claim.Refused.class, claim(key, "yookassa")).reason());

        assertEquals(before, state(key));
        assertTrue(events(key).isEmpty(), "a refusal is counted and logged, never stored");
    }

    @Test
    void anOperationAnotherHolderLeasedIsLeftToItAndNothingIsWritten() throws SQLException {
        String key = row("unknown", "now() + interval '30 seconds'", "yookassa", null);
        String before = state(key);

        assertEquals("busy", assertInstanceOf(NoticeClaims.Claim.Refused.class, claim(key, "yookassa")).reason());

        assertEquals(before, state(key));
        assertTrue(events(key).isEmpty());
    }

    @Test
    void aBusyRefusalSaysWhenTheHoldersLeaseEnds() throws SQLException {
        String key = row("started", "now() + interval '30 seconds'", "yookassa", null);

        NoticeClaims.Claim.Refused busy = assertInstanceOf(NoticeClaims.Claim.Refused.class, claim(key, "yookassa"));

        assertEquals("busy", busy.reason());
        assertTrue(busy.leaseUntil() != null && busy.leaseUntil().isAfter(java.time.Instant.now()), "when to claim again: " + busy);
    }

    @Test
    void anOutstandingOperationIsSeenPerTargetAndTenant() throws SQLException {
        String target = "t" + UUID.randomUUID().toString().substring(0, 8);
        assertTrue(!outstanding(null, target), "no operation at a target nobody called");
        row("succeeded", "NULL", target, "x-1");
        assertTrue(!outstanding(null, target), "a settled one is not outstanding");
        row("unknown", "NULL", target, null);
        assertTrue(outstanding(null, target));
        assertTrue(outstanding("acme", target));
        assertTrue(!outstanding("other", target));
    }

    @Test
    void aNotificationFromAnotherTargetFindsNoOperation() throws SQLException {
        String key = row("unknown", "NULL", "bitrix24", null);

        assertEquals("not_found", assertInstanceOf(NoticeClaims.Claim.Refused.class, claim(key, "yookassa")).reason());
        assertEquals("not_found", assertInstanceOf(NoticeClaims.Claim.Refused.class, claim("no-such-key", "yookassa")).reason());
        assertTrue(events(key).isEmpty());
    }

    @Test
    void theOneOperationThatRecordedAnObjectIsFoundByItButTwoAreNeither() throws SQLException {
        String object = "p-" + UUID.randomUUID();
        String key = row("unknown", "NULL", "yookassa", object);
        assertEquals(Optional.of(key), keyOf(object, "yookassa"));
        assertEquals(Optional.empty(), keyOf(object, "bitrix24"));

        row("unknown", "NULL", "yookassa", object);
        assertEquals(Optional.empty(), keyOf(object, "yookassa"), "two operations on one object: a person looks, not a notification");
    }

    private static NoticeClaims.Claim claim(String key, String target) {
        NoticeClaims claims = new NoticeClaims();
        claims.settings = JournalDatabase.settings(30, 30, 10);
        return JournalDatabase.inTransaction(unit, em -> {
            claims.em = em;
            return claims.claim("acme", key, target, null, RECEIPT);
        });
    }

    private static boolean outstanding(String tenant, String target) {
        NoticeClaims claims = new NoticeClaims();
        return JournalDatabase.inTransaction(unit, em -> {
            claims.em = em;
            return claims.anyOutstanding(tenant, target);
        });
    }

    private static Optional<String> keyOf(String object, String target) {
        NoticeClaims claims = new NoticeClaims();
        return JournalDatabase.inTransaction(unit, em -> {
            claims.em = em;
            return claims.keyOfObject("acme", target, object);
        });
    }

    private static String row(String status, String leaseUntil, String target, String objectId) throws SQLException {
        String key = "test:payment.create:" + UUID.randomUUID() + ":v1";
        exec("INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload, status, target_system,"
                + " lease_until, lease_epoch, target_object_id, completed_at, trace_id) VALUES ('acme', '" + key + "', 'payment.create', '" + HASH
                + "', '{}', '" + status + "', '" + target + "', " + leaseUntil + ", 1, " + (objectId == null ? "NULL" : "'" + objectId + "'")
                + ", " + ("succeeded".equals(status) ? "now()" : "NULL") + ", '" + TRACE + "')");
        return key;
    }

    private static String state(String key) throws SQLException {
        try (Connection c = database.connection(); ResultSet r = c.createStatement().executeQuery(
                "SELECT status, lease_until > now(), lease_epoch FROM agent_operation_log WHERE operation_key = '" + key + "'")) {
            r.next();
            return r.getString(1) + " " + r.getBoolean(2) + " " + r.getLong(3);
        }
    }

    private static List<String> events(String key) throws SQLException {
        List<String> events = new ArrayList<>();
        try (Connection c = database.connection(); ResultSet r = c.createStatement().executeQuery(
                "SELECT kind, detail, actor, trace_id FROM operation_event WHERE operation_key = '" + key + "' ORDER BY id")) {
            while (r.next()) {
                assertEquals(NoticeClaims.ACTOR, r.getString(3));
                assertEquals(TRACE, r.getString(4), "a notification's events join the operation's trace");
                events.add(r.getString(1) + ("notified".equals(r.getString(1)) ? ": " + r.getString(2) : ""));
            }
        }
        return events;
    }

    private static void exec(String sql) throws SQLException {
        try (Connection c = database.connection()) {
            c.createStatement().execute(sql);
        }
    }
}
