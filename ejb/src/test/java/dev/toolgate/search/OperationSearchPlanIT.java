package dev.toolgate.search;

import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.operation.OperationView;
import dev.toolgate.journal.StatementRecorder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * How PostgreSQL plans the console's searches once the journal is large: the statements {@link OperationSearch}
 * really runs (EclipseLink's SQL for its JPQL, recorded with their parameters) use the search indexes (V10)
 * rather than reading the tenant's whole journal.
 */
class OperationSearchPlanIT {

    private static final String TENANT = "bulk";
    private static final int ROWS = 20_000;

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();
    private static StatementRecorder recorder;
    private static EntityManagerFactory unit;

    @BeforeAll
    static void fill() throws Exception {
        recorder = new StatementRecorder(database.dataSource());
        unit = JournalDatabase.persistenceUnit(recorder.dataSource());
        try (Connection c = database.connection(); Statement s = c.createStatement()) {
            // succeeded operations, each captured in its own trace and naming its own object, a millisecond apart,
            // each with its captured event as KeyCapture writes it
            s.execute("INSERT INTO agent_operation_log (tenant, operation_key, agent_id, operation_type, request_hash, payload, status,"
                    + " target_system, target_object_id, attempt_count, created_at, updated_at, completed_at, trace_id)"
                    + " SELECT '" + TENANT + "', 'bulk:' || g, 'agent-a', 'payment.create', repeat('b', 64), '{}', 'succeeded', 'yookassa',"
                    + " 'obj-' || g, 1, timestamptz '2026-11-01 08:00Z' + g * interval '1 millisecond',"
                    + " timestamptz '2026-11-01 08:00Z' + g * interval '1 millisecond', timestamptz '2026-11-01 08:00Z' + g * interval '1 millisecond',"
                    + " lpad(to_hex(g), 32, '0') FROM generate_series(1, " + ROWS + ") AS g");
            s.execute("INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, actor, trace_id)"
                    + " SELECT tenant, operation_key, created_at, 'captured', agent_id, trace_id FROM agent_operation_log");
            s.execute("ANALYZE agent_operation_log");
            s.execute("ANALYZE operation_event");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        unit.close();
    }

    /**
     * A trace is found by the events that carry it — the capture's own event carries the row's trace
     * ({@link dev.toolgate.lifecycle.FirstCapture#READ_OR_CAPTURE}), a later call's is on the event it wrote — through the index on the events' traces,
     * then each operation by its primary key: never by reading every event, nor by walking the tenant's journal.
     */
    @Test
    void findsATraceThroughTheEventTraceIndex() throws SQLException {
        String trace = String.format("%032x", 12_345);
        List<OperationView> found = search(new OperationSearch.Query(null, trace, null, null, null, null));
        assertEquals(List.of("bulk:12345"), found.stream().map(OperationView::key).toList());
        String plan = plan();
        assertTrue(plan.contains("operation_event_trace_idx"), plan);
        assertTrue(plan.contains("agent_operation_log_pkey"), plan);
        assertFalse(plan.contains("Seq Scan"), plan);
        assertFalse(plan.contains("agent_operation_log_created_idx"), "no walk through the tenant's journal: " + plan);
    }

    @Test
    void findsATargetObjectThroughTheObjectIndex() throws SQLException {
        List<OperationView> found = search(new OperationSearch.Query(null, null, "obj-777", null, null, null));
        assertEquals(List.of("bulk:777"), found.stream().map(OperationView::key).toList());
        String plan = plan();
        assertTrue(plan.contains("agent_operation_log_object_idx"), plan);
        assertFalse(plan.contains("Seq Scan"), plan);
    }

    @Test
    void readsAPageOfTheWholeJournalThroughTheCaptureTimeIndex() throws SQLException {
        assertEquals(50, search(new OperationSearch.Query(null, null, null, null, null, null)).size());
        String plan = plan();
        assertTrue(plan.contains("agent_operation_log_created_idx"), plan);
    }

    /** A key is the primary key's: one row read, however large the tenant's journal. */
    @Test
    void findsAKeyThroughThePrimaryKey() throws SQLException {
        List<OperationView> found = search(new OperationSearch.Query("bulk:4321", null, null, null, null, null));
        assertEquals(List.of("bulk:4321"), found.stream().map(OperationView::key).toList());
        String plan = plan();
        assertTrue(plan.contains("agent_operation_log_pkey"), plan);
        assertFalse(plan.contains("Seq Scan"), plan);
    }

    /**
     * A standing within a capture-time range (the console's "succeeded in a day") walks the capture-time index over
     * that range only, never the tenant's whole journal.
     */
    @Test
    void readsAStandingWithinARangeThroughTheCaptureTimeIndex() throws SQLException {
        java.time.Instant from = java.time.Instant.parse("2026-11-01T08:00:05Z");
        List<OperationView> found = search(new OperationSearch.Query(null, null, null, Standing.SUCCEEDED, from, from.plusSeconds(1)));
        assertEquals(50, found.size());
        String plan = plan();
        assertTrue(plan.contains("agent_operation_log_created_idx"), plan);
        assertFalse(plan.contains("Seq Scan"), plan);
    }

    private static List<OperationView> search(OperationSearch.Query query) {
        recorder.clear();
        OperationSearch search = new OperationSearch();
        search.em = unit.createEntityManager();
        try {
            return search.newestFirst(TENANT, query, null, 50).items();
        } finally {
            search.em.close();
        }
    }

    /** The plan of the search just run. */
    private static String plan() throws SQLException {
        try (Connection c = database.connection()) {
            return StatementRecorder.explain(c, recorder.last("SELECT"));
        }
    }
}
