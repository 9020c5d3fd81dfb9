package dev.toolgate.lifecycle;

import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationId;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the reconcile job claims ({@link DueOperations#DUE}), on real PostgreSQL: every kind of due row and
 * nothing else, the longest due first, another claim's rows passed over, and a claim's cost independent of
 * how large the backlog is.
 */
class DueOperationsIT {

    private static final String HASH = "b".repeat(64);

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();

    @BeforeEach
    void emptyJournal() throws SQLException {
        try (Connection c = database.connection()) {
            c.createStatement().execute("TRUNCATE agent_operation_log CASCADE");
        }
    }

    @Test
    void aClaimTakesEveryKindOfDueRowLongestDueFirstAndNothingElse() throws SQLException {
        try (Connection c = database.connection()) {
            row(c, "due-5m", "'unknown'", "now() - interval '5 minutes'", "NULL", "now()", false);
            row(c, "due-1m", "'unknown'", "now() - interval '1 minute'", "NULL", "now()", false);
            row(c, "unscheduled-4m", "'unknown'", "NULL", "NULL", "now() - interval '4 minutes'", false);
            row(c, "lapsed-3m", "'started'", "NULL", "now() - interval '3 minutes'", "now()", false);
            row(c, "lease-lapsed-2m", "'unknown'", "now() - interval '10 minutes'", "now() - interval '2 minutes'", "now()", false);
            row(c, "not-yet-due", "'unknown'", "now() + interval '1 minute'", "NULL", "now() - interval '9 minutes'", false);
            row(c, "leased", "'unknown'", "now() - interval '9 minutes'", "now() + interval '30 seconds'", "now()", false);
            row(c, "escalated", "'unknown'", "now() - interval '9 minutes'", "NULL", "now()", true);
            row(c, "started-held", "'started'", "NULL", "now() + interval '30 seconds'", "now() - interval '9 minutes'", false);
            row(c, "succeeded", "'succeeded'", "NULL", "NULL", "now() - interval '9 minutes'", false);

            // an unknown row's next look-up is due at next_check_at, however long ago its lease lapsed
            assertEquals(List.of("lease-lapsed-2m", "due-5m", "unscheduled-4m", "lapsed-3m", "due-1m"), claim(c, 10),
                    "every due row, the one due longest first; not yet due, leased, escalated, held and settled rows left alone");
            assertEquals(List.of("lease-lapsed-2m", "due-5m"), claim(c, 2), "the limit keeps the longest due");
        }
    }

    @Test
    void theJobsClaimLeasesTheDueRowsAndHandsThemOnWholeInDueOrder() throws SQLException {
        try (Connection c = database.connection()) {
            row(c, "due-5m", "'unknown'", "now() - interval '5 minutes'", "NULL", "now()", false);
            row(c, "due-1m", "'unknown'", "now() - interval '1 minute'", "NULL", "now()", false);
            row(c, "not-yet-due", "'unknown'", "now() + interval '1 minute'", "NULL", "now()", false);
        }
        EntityManagerFactory unit = database.persistenceUnit();
        try {
            DueOperations job = new DueOperations();
            job.settings = JournalDatabase.settings(30, 0, 0);
            List<OperationView> claimed = JournalDatabase.inTransaction(unit, em -> {
                job.em = em;
                return job.claim(20);
            });

            assertEquals(List.of("due-5m", "due-1m"), claimed.stream().map(OperationView::key).toList());
            for (OperationView leased : claimed) {
                assertEquals(OperationStatus.UNKNOWN, leased.status());
                assertEquals(2, leased.leaseEpoch(), "the look-up's own lease: whoever held the row before holds nothing");
                assertTrue(leased.leaseUntil().isAfter(Instant.now().plusSeconds(20)), "leased for the lease's length");
                assertEquals("1c", leased.target());
                assertEquals(leased, JournalDatabase.inTransaction(unit, em ->
                        em.find(Operation.class, new OperationId("acme", leased.key())).view()), "handed on as the journal holds it");
            }
        } finally {
            unit.close();
        }
    }

    @Test
    void aClaimPassesOverRowsAnotherClaimHoldsInsteadOfWaitingForThem() throws SQLException {
        try (Connection c = database.connection(); Connection other = database.connection()) {
            row(c, "due-5m", "'unknown'", "now() - interval '5 minutes'", "NULL", "now()", false);
            row(c, "due-4m", "'unknown'", "now() - interval '4 minutes'", "NULL", "now()", false);
            row(c, "lapsed-3m", "'started'", "NULL", "now() - interval '3 minutes'", "now()", false);
            other.setAutoCommit(false);
            assertEquals(List.of("due-5m", "due-4m"), claim(other, 2));

            assertEquals(List.of("lapsed-3m"), claim(c, 2), "the rows another instance is claiming are passed over");
            other.rollback();
        }
    }

    @Test
    void aClaimOverALargeBacklogReadsAboutAsMuchAsOneOverASmallOne() throws SQLException {
        // sorting every due row for each claim read 75 pages over 2,000 due rows and 1,102 over 40,000; with the
        // candidates' limit bound rather than written in, the plan a pooled prepared statement settles on after five
        // runs (made without the values) read 179 and 1,355
        assertFlatOverBacklog("a claim of 20", DueOperationsIT::buffersOfAClaim);
    }

    @Test
    void aLeaseOverALargeJournalReadsAboutAsMuchAsOneOverASmallOne() throws SQLException {
        assertFlatOverBacklog("a lease of 20", DueOperationsIT::buffersOfALease);
    }

    /** Pages a statement touches, planned with its values or, {@code generic}, without them. */
    private interface Pages {
        long of(Connection c, boolean generic) throws SQLException;
    }

    /** {@code what} reads fewer than twice the pages over 40,000 due rows than over 2,000, with either plan. */
    private static void assertFlatOverBacklog(String what, Pages pages) throws SQLException {
        try (Connection c = database.connection()) {
            backlog(c, 2_000);
            long smaller = pages.of(c, false);
            long smallerGeneric = pages.of(c, true);
            backlog(c, 38_000);
            long larger = pages.of(c, false);
            long largerGeneric = pages.of(c, true);
            System.out.printf("pages %s touches over 2,000 / 40,000 due rows: %d / %d, with the generic plan %d / %d%n",
                    what, smaller, larger, smallerGeneric, largerGeneric);
            assertTrue(larger < 2 * smaller, "pages " + what + " touches: " + smaller + " over 2,000 due rows, " + larger + " over 40,000");
            assertTrue(largerGeneric < 2 * smallerGeneric, "pages " + what + " touches with the generic plan: " + smallerGeneric
                    + " over 2,000 due rows, " + largerGeneric + " over 40,000");
        }
    }

    /** {@code n} more unknown operations, due at spread times, as an outage leaves them. */
    private static void backlog(Connection c, int n) throws SQLException {
        c.createStatement().execute("INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload,"
                + " status, target_system, next_check_at, updated_at) SELECT 'acme', 'backlog:' || g || ':' || random(), 'invoice.create', '"
                + HASH + "', '{}', 'unknown', '1c', now() - random() * interval '1 hour', now() - random() * interval '1 hour'"
                + " FROM generate_series(1, " + n + ") g");
        c.createStatement().execute("ANALYZE agent_operation_log");
    }

    /** Pages one claim of 20 touches, planned with its values or, {@code generic}, without them. */
    private static long buffersOfAClaim(Connection c, boolean generic) throws SQLException {
        c.setAutoCommit(false);
        try (java.sql.Statement s = c.createStatement()) {
            s.execute("SET LOCAL plan_cache_mode = " + (generic ? "force_generic_plan" : "force_custom_plan"));
            s.execute("PREPARE claim (timestamptz, timestamptz, timestamptz, integer) AS "
                    + DueOperations.DUE.replaceAll("\\?(\\d+)", "\\$$1"));
            try (ResultSet plan = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE claim (now(), now(), now(), 20)")) {
                plan.next();
                return pages(plan.getString(1));
            }
        } finally {
            c.rollback(); // the rows it locked, and the prepared statement
            c.createStatement().execute("DEALLOCATE claim");
            c.setAutoCommit(true);
        }
    }

    /** Pages one lease of 20 claimed rows ({@link Leases#LOOKUP}) touches, planned with its values or without them. */
    private static long buffersOfALease(Connection c, boolean generic) throws SQLException {
        StringBuilder claimed = new StringBuilder("[");
        try (ResultSet keys = c.createStatement().executeQuery(
                "SELECT tenant, operation_key FROM agent_operation_log ORDER BY random() LIMIT 20")) {
            while (keys.next()) {
                claimed.append(claimed.length() > 1 ? "," : "").append("{\"tenant\":\"").append(keys.getString(1))
                        .append("\",\"operation_key\":\"").append(keys.getString(2)).append("\",\"lapsed\":false,\"settle_after\":null}");
            }
        }
        claimed.append("]");
        c.setAutoCommit(false);
        try (java.sql.Statement s = c.createStatement()) {
            s.execute("SET LOCAL plan_cache_mode = " + (generic ? "force_generic_plan" : "force_custom_plan"));
            s.execute("PREPARE lease (text, timestamptz, timestamptz, text, text) AS "
                    + OperationWrites.LOOKUP.replaceAll("\\?(\\d+)", "\\$$1"));
            try (ResultSet plan = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE lease ('" + claimed
                    + "', now() + interval '30 seconds', now(), 'reconciler', NULL)")) {
                plan.next();
                return pages(plan.getString(1));
            }
        } finally {
            c.rollback();
            c.createStatement().execute("DEALLOCATE lease");
            c.setAutoCommit(true);
        }
    }

    /** Every page a plan touched: its top node counts its children's. */
    private static long pages(String json) {
        Matcher hit = Pattern.compile("\"Shared Hit Blocks\": (\\d+)").matcher(json);
        Matcher read = Pattern.compile("\"Shared Read Blocks\": (\\d+)").matcher(json);
        return (hit.find() ? Long.parseLong(hit.group(1)) : 0) + (read.find() ? Long.parseLong(read.group(1)) : 0);
    }

    /** The keys DUE locks and returns, in its order. */
    private static List<String> claim(Connection c, int limit) throws SQLException {
        List<String> keys = new ArrayList<>();
        try (PreparedStatement due = bound(c, DueOperations.DUE, limit); ResultSet rows = due.executeQuery()) {
            while (rows.next()) {
                keys.add(rows.getString("operation_key"));
            }
        }
        return keys;
    }

    /** DUE with its parameters: ?1–?3 now, ?4 the limit. */
    private static PreparedStatement bound(Connection c, String sql, int limit) throws SQLException {
        Timestamp now = Timestamp.from(Instant.now());
        return JournalDatabase.prepared(c, sql, now, now, now, limit);
    }

    private static void row(Connection c, String key, String status, String nextCheckAt, String leaseUntil, String updatedAt,
                            boolean escalated) throws SQLException {
        boolean settled = status.equals("'succeeded'");
        c.createStatement().execute("INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload,"
                + " status, target_system, target_object_id, completed_at, next_check_at, lease_until, updated_at, escalated_at)"
                + " VALUES ('acme', '" + key + "', 'invoice.create', '" + HASH + "', '{}', " + status + ", '1c', "
                + (settled ? "'ref-1', now()" : "NULL, NULL") + ", " + nextCheckAt + ", " + leaseUntil + ", " + updatedAt + ", "
                + (escalated ? "now()" : "NULL") + ")");
    }
}
