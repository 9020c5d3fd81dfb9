package dev.toolgate.search;

import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * {@link OperationSearch} on real PostgreSQL, through the application's persistence unit: each filter finds exactly
 * the rows the pure {@link Standing} table and a hand count say, never another tenant's; keyset pages cover every
 * row once however many rows share a capture instant; the unfinished counts agree with {@link Backlog#now()}
 * (how PostgreSQL plans these searches on a large journal: {@link OperationSearchPlanIT}).
 */
@Order(1) // the longest of the module's suites: started first, beside the others (ejb/pom.xml)
class OperationSearchIT {

    private static final String ACME = "acme";
    private static final String GLOBEX = "globex";
    private static final int ACME_ROWS = 300;
    private static final int GLOBEX_ROWS = 100;
    /** Rows captured in the same microsecond: keyset pages must break ties by key. */
    private static final int TIE = 7;
    /** A later call's trace (a resume, a resolve) recorded on events only, never on a row. */
    private static final String RESUME_TRACE = "e".repeat(32);
    private static final Instant BASE = Instant.parse("2026-11-01T08:00:00.000500Z");
    /** Every lease in the seed ends an hour from or before this moment, so "now" during the test is unambiguous. */
    private static final Instant SEEDED = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();
    private static EntityManagerFactory unit;
    private static final List<Row> rows = new ArrayList<>();

    /** One seeded operation, as the test knows it. */
    record Row(String tenant, String key, OperationStatus status, Instant escalatedAt, Instant leaseUntil, String traceId,
               String objectId, Instant createdAt, boolean resumed) {

        Standing standing(Instant now) {
            return Standing.of(status, "active".equals(approval()), escalatedAt, leaseUntil, now);
        }

        /**
         * Of the operations awaiting approval, a third have none granted, a third one standing (granted, unused), a
         * third one that expired unused: null, "active", "expired".
         */
        String approval() {
            if (status != OperationStatus.PENDING_APPROVAL) {
                return null;
            }
            int third = Math.floorMod((tenant + key).hashCode(), 3);
            return third == 0 ? null : third == 1 ? "active" : "expired";
        }

        String approvalId() {
            return approval() == null ? null : java.util.UUID.nameUUIDFromBytes((tenant + key).getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
        }

        /** Found by trace: captured in it, or a later event of its carries it. */
        boolean inTrace(String trace) {
            return trace.equals(traceId) || resumed && trace.equals(RESUME_TRACE);
        }
    }

    @BeforeAll
    static void seed() throws Exception {
        unit = database.persistenceUnit();
        for (int i = 0; i < ACME_ROWS; i++) {
            rows.add(row(ACME, i));
        }
        for (int i = 0; i < GLOBEX_ROWS; i++) {
            rows.add(row(GLOBEX, i)); // the same keys, traces and object ids in another tenant
        }
        try (Connection c = database.connection()) {
            insert(c, rows);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        unit.close();
    }

    /**
     * Row {@code i}: ten states in turn (two kinds of lapsed lease among them), trace ids shared by several rows,
     * object ids on successes and escalations, and capture instants in groups of {@link #TIE}, two groups to a
     * millisecond 1 µs apart (a cursor rounded to milliseconds would skip rows).
     */
    private static Row row(String tenant, int i) {
        int group = i / TIE;
        Instant created = BASE.plus(Duration.ofNanos((group / 2) * 1_000_000L + (group % 2) * 1_000L));
        // keys whose order differs between byte order and a linguistic collation, so the database's own order is the one tested
        String key = "test:" + (i % 3 == 0 ? "Op" : i % 3 == 1 ? "op" : "op-") + ":" + (i * 7919 % 1000) + ":v1";
        OperationStatus status;
        Instant escalated = null;
        Instant lease = null;
        String object = null;
        switch (i % 10) {
            case 0 -> status = OperationStatus.PENDING_APPROVAL;
            case 1 -> {
                status = OperationStatus.STARTED;
                lease = SEEDED.plus(Duration.ofHours(1));
            }
            case 2 -> {
                status = OperationStatus.STARTED;
                lease = SEEDED.minus(Duration.ofHours(1));
            }
            case 3 -> status = OperationStatus.STARTED; // a lease never written: lapsed
            case 4 -> status = OperationStatus.UNKNOWN;
            case 5 -> {
                status = OperationStatus.UNKNOWN;
                escalated = SEEDED.minus(Duration.ofMinutes(5));
                object = "obj-dup-" + (i % 17);
            }
            case 6 -> status = OperationStatus.FAILED_RETRYABLE;
            case 8 -> status = OperationStatus.FAILED_FINAL;
            default -> {
                status = OperationStatus.SUCCEEDED;
                object = "obj-" + (i % 17);
            }
        }
        String trace = i % 4 == 0 ? null : trace(i % 13);
        return new Row(tenant, key, status, escalated, lease, trace, object, created, i % 11 == 0);
    }

    private static String trace(int n) {
        return String.format("%032x", 0xabc000L + n);
    }

    @Test
    void findsOneOperationByItsKeyInItsTenantOnly() {
        Row wanted = acme().get(42);
        List<OperationView> found = all(ACME, query(wanted.key(), null, null, null, null, null), false);
        assertEquals(List.of(wanted.key()), keys(found));
        assertEquals(ACME, found.get(0).tenant(), "globex holds the same key");
        assertEquals(List.of(), keys(all("initech", query(wanted.key(), null, null, null, null, null), false)));
    }

    @Test
    void findsTheOperationsOfATraceCapturedInItOrContinuedInIt() {
        for (int n : new int[] {0, 3, 12}) {
            String trace = trace(n);
            assertFalse(expected(ACME, r -> r.inTrace(trace)).isEmpty());
            assertEquals(expected(ACME, r -> r.inTrace(trace)), keySet(all(ACME, query(null, trace, null, null, null, null), false)),
                    "trace " + trace);
        }
        Set<String> resumed = expected(ACME, r -> r.inTrace(RESUME_TRACE));
        assertFalse(resumed.isEmpty());
        assertEquals(resumed, keySet(all(ACME, query(null, RESUME_TRACE, null, null, null, null), false)),
                "a trace recorded only on a later event finds the operation");
    }

    @Test
    void findsTheOperationsThatNameATargetObject() {
        for (String object : new String[] {"obj-3", "obj-dup-5", "obj-none"}) {
            assertEquals(expected(ACME, r -> object.equals(r.objectId())), keySet(all(ACME, query(null, null, object, null, null, null), false)),
                    object);
        }
    }

    @Test
    void findsEachStandingAsThePureTableJudgesEveryRow() {
        Instant now = Instant.now();
        for (Standing standing : Standing.values()) {
            Set<String> expected = expected(ACME, r -> r.standing(now) == standing);
            assertFalse(expected.isEmpty(), standing + " is seeded");
            List<OperationView> found = all(ACME, OperationSearch.Query.standing(standing), true);
            assertEquals(expected, keySet(found), standing.name());
            Set<String> approvedNow = searcher().approvedNow(found);
            for (OperationView op : found) {
                assertEquals(standing, Standing.of(op, approvedNow.contains(op.key()), now), op.key());
            }
        }
    }

    @Test
    void findsOperationsCapturedFromTheFirstMomentUpToButNotIncludingTheLast() {
        Instant from = acme().get(10 * TIE).createdAt();
        Instant to = acme().get(20 * TIE).createdAt();
        Set<String> expected = expected(ACME, r -> !r.createdAt().isBefore(from) && r.createdAt().isBefore(to));
        assertEquals(10 * TIE, expected.size());
        assertEquals(expected, keySet(all(ACME, query(null, null, null, null, from, to), false)));
        assertEquals(expected(ACME, r -> !r.createdAt().isBefore(from)), keySet(all(ACME, query(null, null, null, null, from, null), false)));
        assertEquals(expected(ACME, r -> r.createdAt().isBefore(to)), keySet(all(ACME, query(null, null, null, null, null, to), true)));
    }

    @Test
    void combinesConditions() {
        Instant now = Instant.now();
        Instant from = acme().get(5 * TIE).createdAt();
        String trace = trace(7);
        Set<String> expected = expected(ACME, r -> r.inTrace(trace) && r.standing(now) == Standing.SUCCEEDED && !r.createdAt().isBefore(from));
        assertFalse(expected.isEmpty());
        assertEquals(expected, keySet(all(ACME, query(null, trace, null, Standing.SUCCEEDED, from, null), false)));
    }

    @Test
    void neverShowsAnotherTenantsOperations() {
        Set<String> everything = new HashSet<>();
        for (OperationView op : all(ACME, query(null, null, null, null, null, null), false)) {
            assertEquals(ACME, op.tenant());
            everything.add(op.key());
        }
        assertEquals(expected(ACME, r -> true), everything);
        assertEquals(expected(GLOBEX, r -> r.inTrace(trace(3))), keySet(all(GLOBEX, query(null, trace(3), null, null, null, null), false)));
        assertEquals(expected(GLOBEX, r -> "obj-3".equals(r.objectId())), keySet(all(GLOBEX, query(null, null, "obj-3", null, null, null), true)));
    }

    @Test
    void pagesNewestFirstThroughEveryRowExactlyOnceAcrossTies() throws SQLException {
        assertPagesInDatabaseOrder(false, 5);
        assertPagesInDatabaseOrder(false, TIE);
        assertPagesInDatabaseOrder(false, 1);
    }

    @Test
    void pagesOldestFirstThroughEveryRowExactlyOnceAcrossTies() throws SQLException {
        assertPagesInDatabaseOrder(true, 5);
        assertPagesInDatabaseOrder(true, TIE);
        assertPagesInDatabaseOrder(true, 300);
    }

    @Test
    void endsWithoutANextPageWhenTheLastPageIsExactlyFull() {
        OperationSearch.Page page = searcher().oldestFirst(ACME, query(null, null, null, null, null, null), null, ACME_ROWS);
        assertEquals(ACME_ROWS, page.items().size());
        assertNull(page.next());
        OperationSearch.Page oneShort = searcher().oldestFirst(ACME, query(null, null, null, null, null, null), null, ACME_ROWS - 1);
        assertNotNull(oneShort.next(), "one row left for the next page");
    }

    @Test
    void pagesAFilteredListToo() {
        List<OperationView> paged = new ArrayList<>();
        Cursor after = null;
        do {
            OperationSearch.Page page = searcher().newestFirst(ACME, OperationSearch.Query.standing(Standing.SUCCEEDED), after, 4);
            paged.addAll(page.items());
            after = page.next();
        } while (after != null);
        assertEquals(expected(ACME, r -> r.status() == OperationStatus.SUCCEEDED), keySet(paged));
        assertEquals(paged.size(), keySet(paged).size(), "no row twice");
    }

    @Test
    void countsUnfinishedWorkByStandingAsAHandCountDoes() {
        Instant now = Instant.now();
        for (String tenant : new String[] {ACME, GLOBEX}) {
            Map<Standing, Long> expected = new EnumMap<>(Standing.class);
            for (Standing standing : Standing.values()) {
                if (!standing.finished()) {
                    expected.put(standing, rows.stream().filter(r -> r.tenant().equals(tenant) && r.standing(now) == standing).count());
                }
            }
            assertEquals(expected, searcher().unfinished(tenant), tenant);
        }
        Map<Standing, Long> none = searcher().unfinished("initech-empty");
        assertEquals(7, none.size(), "every unfinished standing, counted or not");
        assertTrue(none.values().stream().allMatch(count -> count == 0));
    }

    @Test
    void unfinishedCountsAddUpToTheBacklogTheMetricReports() {
        Map<String, Long> byMetricStatus = new TreeMap<>();
        for (String tenant : new String[] {ACME, GLOBEX}) {
            searcher().unfinished(tenant).forEach((standing, count) -> byMetricStatus.merge(standing.metricStatus(), count, Long::sum));
        }
        byMetricStatus.values().removeIf(count -> count == 0);
        EntityManager em = unit.createEntityManager();
        try {
            Backlog backlog = new Backlog();
            backlog.em = em;
            assertEquals(byMetricStatus, backlog.now().unfinished());
        } finally {
            em.close();
        }
    }

    /**
     * Page through the whole of acme {@code limit} rows at a time; the pages, put together, are exactly the rows in
     * the order PostgreSQL itself sorts them.
     */
    private static void assertPagesInDatabaseOrder(boolean ascending, int limit) throws SQLException {
        List<String> paged = new ArrayList<>();
        Cursor after = null;
        int pages = 0;
        do {
            OperationSearch searcher = searcher();
            OperationSearch.Query all = query(null, null, null, null, null, null);
            OperationSearch.Page page = ascending ? searcher.oldestFirst(ACME, all, after, limit) : searcher.newestFirst(ACME, all, after, limit);
            assertTrue(page.items().size() <= limit);
            page.items().forEach(op -> paged.add(op.key()));
            after = page.next();
            pages++;
        } while (after != null && pages <= ACME_ROWS + 1);
        assertEquals(databaseOrder(ascending), paged, (ascending ? "oldest" : "newest") + " first, " + limit + " a page");
        assertEquals(ACME_ROWS, new HashSet<>(paged).size());
    }

    private static List<String> databaseOrder(boolean ascending) throws SQLException {
        String direction = ascending ? "" : " DESC";
        try (Connection c = database.connection();
             PreparedStatement q = c.prepareStatement("SELECT operation_key FROM agent_operation_log WHERE tenant = ?"
                     + " ORDER BY created_at" + direction + ", operation_key" + direction)) {
            q.setString(1, ACME);
            List<String> keys = new ArrayList<>();
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    keys.add(r.getString(1));
                }
            }
            return keys;
        }
    }

    /** Every page of a search, put together. */
    private static List<OperationView> all(String tenant, OperationSearch.Query query, boolean ascending) {
        List<OperationView> found = new ArrayList<>();
        Cursor after = null;
        do {
            OperationSearch searcher = searcher();
            OperationSearch.Page page = ascending ? searcher.oldestFirst(tenant, query, after, 50) : searcher.newestFirst(tenant, query, after, 50);
            page.items().forEach(op -> assertEquals(tenant, op.tenant(), "another tenant's " + op.key()));
            found.addAll(page.items());
            after = page.next();
        } while (after != null);
        return found;
    }

    /** The bean as the container hands it out outside a transaction: a fresh persistence context per call. */
    private static OperationSearch searcher() {
        OperationSearch search = new OperationSearch();
        search.em = unit.createEntityManager();
        return search;
    }

    private static OperationSearch.Query query(String key, String trace, String object, Standing standing, Instant from, Instant to) {
        return new OperationSearch.Query(key, trace, object, standing, from, to);
    }

    private static List<Row> acme() {
        return rows.subList(0, ACME_ROWS);
    }

    private static Set<String> expected(String tenant, Predicate<Row> condition) {
        return rows.stream().filter(r -> r.tenant().equals(tenant)).filter(condition).map(Row::key).collect(Collectors.toSet());
    }

    private static List<String> keys(List<OperationView> operations) {
        return operations.stream().map(OperationView::key).toList();
    }

    private static Set<String> keySet(List<OperationView> operations) {
        Set<String> keys = operations.stream().map(OperationView::key).collect(Collectors.toSet());
        assertEquals(operations.size(), keys.size(), "no operation twice");
        return keys;
    }

    private static void insert(Connection c, List<Row> seeded) throws SQLException {
        try (PreparedStatement op = c.prepareStatement("INSERT INTO agent_operation_log (tenant, operation_key, agent_id, operation_type,"
                + " request_hash, payload, status, target_system, target_object_id, attempt_count, lease_until, escalated_at, created_at,"
                + " updated_at, completed_at, trace_id, approval_required, approval_id) VALUES (?, ?, 'agent-a', 'payment.create', ?, '{}', ?,"
                + " 'yookassa', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
             PreparedStatement event = c.prepareStatement("INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, actor,"
                     + " trace_id) VALUES (?, ?, ?, ?, 'agent-a', ?)")) {
            for (Row r : seeded) {
                OffsetDateTime created = r.createdAt().atOffset(ZoneOffset.UTC);
                op.setString(1, r.tenant());
                op.setString(2, r.key());
                op.setString(3, "b".repeat(64));
                op.setString(4, r.status().dbName());
                op.setString(5, r.objectId());
                op.setInt(6, r.status() == OperationStatus.PENDING_APPROVAL ? 0 : 1);
                op.setObject(7, r.leaseUntil() == null ? null : r.leaseUntil().atOffset(ZoneOffset.UTC));
                op.setObject(8, r.escalatedAt() == null ? null : r.escalatedAt().atOffset(ZoneOffset.UTC));
                op.setObject(9, created);
                op.setObject(10, created);
                op.setObject(11, r.status().isTerminal() ? created : null);
                op.setString(12, r.traceId());
                op.setBoolean(13, r.status() == OperationStatus.PENDING_APPROVAL);
                op.setString(14, r.approvalId());
                op.addBatch();
                event(event, r, created, "captured", r.traceId());
                if (r.resumed()) {
                    event(event, r, created.plusSeconds(5), "resumed", RESUME_TRACE);
                }
            }
            op.executeBatch();
            event.executeBatch();
        }
        try (PreparedStatement approval = c.prepareStatement("INSERT INTO operation_approval (approval_id, tenant, operation_key,"
                + " request_hash, granted_by, granted_at, expires_at) VALUES (?, ?, ?, ?, 'approver', ?, ?)")) {
            for (Row r : seeded) {
                if (r.approval() != null) {
                    approval.setString(1, r.approvalId());
                    approval.setString(2, r.tenant());
                    approval.setString(3, r.key());
                    approval.setString(4, "b".repeat(64));
                    approval.setObject(5, SEEDED.minus(Duration.ofHours(2)).atOffset(ZoneOffset.UTC));
                    approval.setObject(6, ("active".equals(r.approval()) ? SEEDED.plus(Duration.ofDays(1)) : SEEDED.minus(Duration.ofHours(1)))
                            .atOffset(ZoneOffset.UTC));
                    approval.addBatch();
                }
            }
            approval.executeBatch();
        }
        try (Statement s = c.createStatement()) {
            s.execute("ANALYZE agent_operation_log");
            s.execute("ANALYZE operation_event");
        }
    }

    private static void event(PreparedStatement event, Row r, OffsetDateTime at, String kind, String trace) throws SQLException {
        event.setString(1, r.tenant());
        event.setString(2, r.key());
        event.setObject(3, at);
        event.setString(4, kind);
        event.setString(5, trace);
        event.addBatch();
    }
}
