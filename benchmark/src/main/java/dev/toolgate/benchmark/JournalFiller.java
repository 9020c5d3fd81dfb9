package dev.toolgate.benchmark;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Fills the journal to a size with operations shaped like real traffic, so index depth, cache misses
 * and page splits are those of a journal that has lived: a thousand tenants (one in fifty rows the
 * benchmark's own), random keys, mostly succeeded with some failed and a few escalated, payloads of a
 * few hundred bytes, created over the last 30 days, two events each (captured, outcome). Escalated
 * operations wait for a person, so the reconcile job leaves them alone.
 */
final class JournalFiller {

    /** Rows per statement: one transaction each, small enough to report progress, large enough to be quick. */
    private static final int CHUNK = 100_000;

    private static final String FILL = "WITH ops AS (INSERT INTO agent_operation_log (tenant, operation_key, agent_id,"
            + " operation_type, request_hash, payload, status, target_system, target_object_id, response_json, error_code,"
            + " attempt_count, created_at, updated_at, completed_at, escalated_at, trace_id)"
            + " SELECT tenant, key, 'agent-' || (g % 7), kind, md5(key) || md5(key || 'h'),"
            + "   jsonb_build_object('order_id', 'order-' || g, 'amount_minor', (random() * 1e7)::bigint, 'currency', 'RUB',"
            + "     'comment', repeat('x', (random() * 400)::int)),"
            + "   status, target, CASE WHEN status = 'succeeded' THEN md5(g || 'o') END,"
            + "   CASE WHEN status = 'succeeded' THEN jsonb_build_object('number', lpad(g::text, 10, '0'), 'posted', false) END,"
            + "   CASE status WHEN 'failed_final' THEN 'rejected' WHEN 'unknown' THEN 'connection_lost'"
            + "     WHEN 'failed_retryable' THEN 'target_unavailable' END,"
            + "   1, at, at, CASE WHEN status IN ('succeeded', 'failed_final') THEN at END,"
            + "   CASE WHEN status = 'unknown' THEN at END, md5(key || 't')"
            + " FROM (SELECT g, CASE WHEN g % 50 = 0 THEN '" + Requests.TENANT + "'"
            + "     ELSE 'tenant-' || lpad((random() * 999)::int::text, 4, '0') END AS tenant,"
            + "   'fill:' || md5(random()::text || g) || ':v1' AS key,"
            + "   (ARRAY['invoice.create', 'deal.create', 'payment.create'])[1 + g % 3] AS kind,"
            + "   (ARRAY['1c', 'bitrix24', 'yookassa'])[1 + g % 3] AS target,"
            + "   now() - random() * interval '30 days' AS at, random() AS r FROM generate_series(1, ?) g) f,"
            + "   LATERAL (SELECT CASE WHEN r < 0.93 THEN 'succeeded' WHEN r < 0.98 THEN 'failed_final'"
            + "     WHEN r < 0.99 THEN 'failed_retryable' ELSE 'unknown' END AS status) s"
            + " ON CONFLICT DO NOTHING RETURNING tenant, operation_key, status, created_at)"
            + " INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, attempt, status, actor, detail)"
            + " SELECT tenant, operation_key, created_at, e.kind, 1, CASE e.kind WHEN 'captured' THEN 'started' ELSE status END,"
            + "   'filler', e.kind FROM ops, (VALUES ('captured'), ('outcome')) e(kind)";

    private JournalFiller() {
    }

    /** Adds operations until the journal holds {@code size}; vacuums, analyzes and checkpoints so the load that follows starts settled. */
    static void fill(Connection c, long size) throws SQLException {
        c.setAutoCommit(true);
        long started = System.nanoTime();
        for (long have = count(c); have < size; have = count(c)) {
            try (var insert = c.prepareStatement(FILL)) {
                insert.setLong(1, Math.min(CHUNK, size - have));
                insert.executeUpdate();
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("VACUUM ANALYZE agent_operation_log");
            s.execute("VACUUM ANALYZE operation_event");
            s.execute("CHECKPOINT");
        }
        System.out.printf("  journal filled to %,d operations in %.0f s%n", count(c), (System.nanoTime() - started) / 1e9);
    }

    /** Empties the journal (principals stay), to grow it from a known size. */
    static void empty(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("TRUNCATE operation_event, operation_approval, agent_operation_log");
        }
    }

    private static long count(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT count(*) FROM agent_operation_log")) {
            r.next();
            return r.getLong(1);
        }
    }
}
