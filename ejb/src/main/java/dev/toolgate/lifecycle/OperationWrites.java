package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.AttemptOutcomes;
import dev.toolgate.lifecycle.decisions.SettleWindows;

import static dev.toolgate.operation.EventKind.APPROVED;
import static dev.toolgate.operation.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.operation.EventKind.LEASE_EXPIRED;
import static dev.toolgate.operation.EventKind.RECONCILE_STARTED;
import static dev.toolgate.operation.EventKind.RESOLVED;

import dev.toolgate.operation.EventKind;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.OperationRows;

/**
 * Every statement that writes an operation's row, in the order of its life. Each write is fenced by the row as its
 * writer holds it (attempt, lease epoch, status; never an escalated row) and writes its event in the same statement,
 * so a row never changes without its event (docs/lifecycle.md).
 */
public final class OperationWrites {

    static final String EVENT = "INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, attempt, status, actor, detail, trace_id)";

    private OperationWrites() {
    }

    /**
     * The key's row as it stands or, only when there is none, the new row with its {@code captured} event. Every
     * parameter is cast: an INSERT … SELECT gives them no column type. Kept a constant expression so the benchmark's
     * JDBC floor can use the text without the class.
     */
    public static final String READ_OR_CAPTURE = "WITH existing AS (SELECT " + OperationRows.COLUMNS
            + " FROM agent_operation_log WHERE tenant = ?1 AND operation_key = ?2),"
            + " captured AS (INSERT INTO agent_operation_log (tenant, operation_key, agent_id, operation_type, request_hash, payload,"
            + " status, target_system, attempt_count, lease_until, created_at, updated_at, withheld_fields, approval_required, trace_id,"
            + " span_id, captured_release) SELECT CAST(?1 AS text), CAST(?2 AS text), CAST(?3 AS text), CAST(?4 AS text), CAST(?5 AS text),"
            + " CAST(?6 AS jsonb), CAST(?7 AS text), CAST(?8 AS text), CAST(?9 AS integer), CAST(?10 AS timestamptz),"
            + " CAST(?11 AS timestamptz), CAST(?12 AS timestamptz), CAST(?13 AS text), CAST(?14 AS boolean), CAST(?15 AS text),"
            + " CAST(?16 AS text), CAST(?17 AS text) WHERE NOT EXISTS (SELECT 1 FROM existing)"
            + " ON CONFLICT (tenant, operation_key) DO NOTHING RETURNING tenant, operation_key, created_at, attempt_count, status,"
            + " agent_id, trace_id),"
            + " logged AS (" + EVENT
            + " SELECT tenant, operation_key, created_at, 'captured', attempt_count, status, agent_id, CAST(?18 AS text), trace_id"
            + " FROM captured)"
            + " SELECT (SELECT count(*) FROM captured) AS captured_rows, existing.* FROM (VALUES (1)) AS one LEFT JOIN existing ON true";

    static final String LOOKUP_LEASED = "look-up by key leased";

    /** The detail of the event an attempt whose lease lapsed without an outcome leaves; %d: its attempt. */
    static final String LAPSED = "the owner of attempt %d did not record an outcome in time";

    static final String ATTEMPT_LEASED = "attempt leased";

    /**
     * Leases each claimed row (?1: JSON array) for a look-up under the next epoch, fencing out the previous holder; a
     * lapsed attempt, maybe still running at the target, gets a settle window ({@link SettleWindows#afterLapsedLease}).
     */
    static final String LOOKUP = "WITH claimed AS (SELECT * FROM jsonb_to_recordset(CAST(?1 AS jsonb))"
            + "   AS c(tenant text, operation_key text, lapsed boolean, settle_after timestamptz)),"
            + " leased AS (UPDATE agent_operation_log o SET status = 'unknown', lease_epoch = o.lease_epoch + 1,"
            + "   lease_until = ?2, updated_at = ?3, settle_after = CASE WHEN c.lapsed THEN c.settle_after ELSE o.settle_after END"
            + "   FROM claimed c WHERE o.tenant = c.tenant AND o.operation_key = c.operation_key" + OperationRows.returning("o") + "),"
            + " logged AS (" + EVENT
            + "   SELECT tenant, operation_key, ?3, kind, attempt_count, 'unknown', ?4, detail, CAST(?5 AS text) FROM ("
            + "     SELECT l.tenant, l.operation_key, l.attempt_count, 0 AS step, '" + LEASE_EXPIRED.dbName() + "' AS kind,"
            + "       replace('" + LAPSED + "', '%d', CAST(l.attempt_count AS text)) AS detail"
            + "       FROM leased l JOIN claimed c ON c.tenant = l.tenant AND c.operation_key = l.operation_key WHERE c.lapsed"
            + "     UNION ALL SELECT tenant, operation_key, attempt_count, 1, '" + RECONCILE_STARTED.dbName() + "', '" + LOOKUP_LEASED + "'"
            + "       FROM leased) e ORDER BY tenant, operation_key, step)"
            + " SELECT * FROM leased";

    /** failed_retryable or approved pending_approval → started, fenced by attempt and epoch as read under the lock. */
    static final String NEXT_ATTEMPT = "WITH started AS (UPDATE agent_operation_log SET status = 'started',"
            + " attempt_count = attempt_count + 1, lease_epoch = lease_epoch + 1, lease_until = ?1, next_check_at = NULL, updated_at = ?2"
            + " WHERE tenant = ?3 AND operation_key = ?4 AND attempt_count = ?5 AND lease_epoch = ?6"
            + " AND status IN ('failed_retryable', 'pending_approval')" + OperationRows.RETURNING + "),"
            + " logged AS (" + EVENT
            + "   SELECT tenant, operation_key, ?2, '" + ATTEMPT_STARTED.dbName() + "', attempt_count, 'started', ?7, '" + ATTEMPT_LEASED + "',"
            + "   CAST(?8 AS text) FROM started)"
            + " SELECT * FROM started";

    /** Renews the holder's lease; fenced by status, attempt and epoch (?5–?7). No event: a renewal changes no state. */
    static final String RENEW = "UPDATE agent_operation_log SET lease_until = ?1, updated_at = ?2"
            + " WHERE tenant = ?3 AND operation_key = ?4 AND status = ?5 AND attempt_count = ?6 AND lease_epoch = ?7"
            + " AND escalated_at IS NULL AND status IN ('started', 'unknown')" + OperationRows.RETURNING;

    /** What every settling write sets (?1 to ?8), on the row of the attempt (?9 to ?11) it names; each adds its own fence. */
    static final String SET = "UPDATE agent_operation_log SET status = ?1, target_object_id = ?2,"
            + " response_json = CAST(?3 AS jsonb), error_code = ?4, lease_until = NULL,"
            + " next_check_at = CAST(?5 AS timestamptz), completed_at = CAST(?6 AS timestamptz), updated_at = ?7,"
            + " settle_after = CAST(?8 AS timestamptz)"
            + " WHERE tenant = ?9 AND operation_key = ?10 AND attempt_count = ?11 AND escalated_at IS NULL";

    /** Only the lease holder settles, except a success ({@link AttemptOutcomes#settlesAfterLeaseLapsed}). */
    public static final String SETTLE_ATTEMPT = SET
            + " AND ((status = 'started' AND lease_epoch = ?12) OR (status = 'unknown' AND CAST(?13 AS boolean)))";

    /** {@link #SETTLE_ATTEMPT} with its outcome or outcome_refused event; the settled row comes back, not read again. */
    public static final String SETTLE_ATTEMPT_LOGGED = "WITH settled AS (" + SETTLE_ATTEMPT + OperationRows.RETURNING + "),"
            + " logged AS (INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, attempt, status, http_status,"
            + " error_class, duration_ms, actor, detail, trace_id) VALUES (?9, ?10, ?7,"
            + " CASE WHEN EXISTS (SELECT 1 FROM settled) THEN 'outcome' ELSE 'outcome_refused' END," // EventKind's names
            + " ?11, ?1, CAST(?14 AS integer), ?15, CAST(?16 AS integer), ?17, ?18, ?19))"
            + " SELECT * FROM settled";

    /** A look-up settles the unknown row it was leased for, and nothing else. */
    static final String SETTLE_LOOKUP = SET + " AND status = 'unknown' AND lease_epoch = ?12";

    /**
     * {@link #SETTLE_LOOKUP} with its {@code reconciled} event for a reconcile chunk's found and failed objects in one
     * statement (?1: JSON array of each row's {@link #SET} values, fence, detail and trace; at ?2 by ?3). A row the fence
     * kept out does not come back, and its recorder decides it again under the row's lock.
     */
    static final String SETTLE_LOOKUPS = "WITH settling AS (SELECT * FROM jsonb_to_recordset(CAST(?1 AS jsonb)) AS s(tenant text,"
            + "   operation_key text, attempt integer, epoch bigint, status text, object_id text, response jsonb, error_code text,"
            + "   next_check_at timestamptz, completed_at timestamptz, settle_after timestamptz, detail text, trace_id text)),"
            + " written AS (UPDATE agent_operation_log o SET status = s.status, target_object_id = s.object_id,"
            + "   response_json = s.response, error_code = s.error_code, lease_until = NULL, next_check_at = s.next_check_at,"
            + "   completed_at = s.completed_at, updated_at = ?2, settle_after = s.settle_after"
            + "   FROM settling s WHERE o.tenant = s.tenant AND o.operation_key = s.operation_key AND o.attempt_count = s.attempt"
            + "   AND o.escalated_at IS NULL AND o.status = 'unknown' AND o.lease_epoch = s.epoch" + OperationRows.returning("o") + "),"
            + " logged AS (" + EVENT
            + "   SELECT w.tenant, w.operation_key, ?2, '" + EventKind.RECONCILED.dbName() + "', w.attempt_count, 'unknown', ?3,"
            + "   s.detail, s.trace_id FROM written w JOIN settling s ON s.tenant = w.tenant AND s.operation_key = w.operation_key)"
            + " SELECT * FROM written";

    /** Absent after the settle window: the next attempt, under a lease of its own, its look-ups counted afresh. */
    static final String RETRY = "UPDATE agent_operation_log SET status = 'started', attempt_count = attempt_count + 1,"
            + " lease_epoch = lease_epoch + 1, lease_until = ?1, next_check_at = NULL, error_code = NULL, reconcile_count = 0,"
            + " settle_after = NULL, updated_at = ?2"
            + " WHERE tenant = ?3 AND operation_key = ?4 AND attempt_count = ?5 AND lease_epoch = ?6 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    /**
     * {@link #RETRY} with its {@code reconciled} and {@code attempt_started} events for a reconcile chunk's rows found
     * absent after their settle windows, each decided under its lock first (?1: JSON array of each row's fence, details
     * and trace; leased until ?2, at ?3 by ?4). The rows written come back.
     */
    static final String RETRIES = "WITH retrying AS (SELECT * FROM jsonb_to_recordset(CAST(?1 AS jsonb)) AS r(tenant text,"
            + "   operation_key text, attempt integer, epoch bigint, detail text, next_detail text, trace_id text)),"
            + " written AS (UPDATE agent_operation_log o SET status = 'started', attempt_count = o.attempt_count + 1,"
            + "   lease_epoch = o.lease_epoch + 1, lease_until = ?2, next_check_at = NULL, error_code = NULL, reconcile_count = 0,"
            + "   settle_after = NULL, updated_at = ?3"
            + "   FROM retrying r WHERE o.tenant = r.tenant AND o.operation_key = r.operation_key AND o.attempt_count = r.attempt"
            + "   AND o.lease_epoch = r.epoch AND o.status = 'unknown' AND o.escalated_at IS NULL" + OperationRows.returning("o") + "),"
            + " logged AS (" + EVENT
            + "   SELECT w.tenant, w.operation_key, ?3, e.kind, e.attempt, e.status, ?4, e.detail, r.trace_id FROM written w"
            + "   JOIN retrying r ON r.tenant = w.tenant AND r.operation_key = w.operation_key,"
            + "   LATERAL (VALUES (0, '" + EventKind.RECONCILED.dbName() + "', w.attempt_count - 1, 'unknown', r.detail),"
            + "     (1, '" + ATTEMPT_STARTED.dbName() + "', w.attempt_count, 'started', r.next_detail)) AS e(step, kind, attempt, status, detail)"
            + "   ORDER BY w.tenant, w.operation_key, e.step)"
            + " SELECT * FROM written";

    // back-off doubles per failed look-up: 1 s, 2 s, 4 s … up to the ceiling; escalated when LookupDecisions says so
    static final String POSTPONE = "UPDATE agent_operation_log SET lease_until = NULL,"
            + " next_check_at = CAST(?1 AS timestamptz) + make_interval(secs => LEAST(?2, 2 ^ LEAST(reconcile_count, 30))),"
            + " reconcile_count = reconcile_count + 1,"
            + " escalated_at = CASE WHEN CAST(?3 AS boolean) THEN CAST(?4 AS timestamptz) END,"
            + " error_code = ?5, updated_at = ?6"
            + " WHERE tenant = ?7 AND operation_key = ?8 AND attempt_count = ?9 AND lease_epoch = ?10 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    /** The attempt gave up on its request, but the target may still execute it: absence proves nothing before the settle window. */
    static final String EXTEND_SETTLE = "UPDATE agent_operation_log SET settle_after = GREATEST(settle_after, CAST(?1 AS timestamptz)),"
            + " updated_at = ?2 WHERE tenant = ?3 AND operation_key = ?4 AND attempt_count = ?5 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    /** Absent, but the attempt may still be running at the target: looked up again once its settle window has passed. */
    static final String AWAIT_SETTLE = "UPDATE agent_operation_log SET lease_until = NULL,"
            + " next_check_at = settle_after, updated_at = ?1"
            + " WHERE tenant = ?2 AND operation_key = ?3 AND attempt_count = ?4 AND lease_epoch = ?5 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    /** A look-up made before it was due learned nothing: only its lease is released. */
    static final String RELEASE = "UPDATE agent_operation_log SET lease_until = NULL, updated_at = ?1"
            + " WHERE tenant = ?2 AND operation_key = ?3 AND attempt_count = ?4 AND lease_epoch = ?5 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    /** A person must look at an unsettled operation now (a contradicting effect); nothing automatic touches it after. */
    static final String ESCALATE = "UPDATE agent_operation_log SET escalated_at = CAST(?1 AS timestamptz), updated_at = ?2"
            + " WHERE tenant = ?3 AND operation_key = ?4 AND status = 'unknown' AND escalated_at IS NULL";

    /**
     * A look-up's fenced write and its events in one statement, the written row returned. A write the fence kept out
     * journals nothing here: {@link LookupRecorder} reads the row to say why and journals the refusal.
     */
    record LookupLogged(NumberedSql sql, int firstEventParameter) {

        static LookupLogged of(String update) {
            int n = NumberedSql.of(update).parameters();
            String tenant = "?" + (n + 1), key = "?" + (n + 2), at = "CAST(?" + (n + 3) + " AS timestamptz)";
            String attempt = "CAST(?" + (n + 4) + " AS integer)", actor = "?" + (n + 5), detail = "?" + (n + 6);
            String trace = "CAST(?" + (n + 7) + " AS text)", retry = "CAST(?" + (n + 8) + " AS boolean)", next = "?" + (n + 9);
            String columns = " " + EVENT;
            return new LookupLogged(NumberedSql.of("WITH written AS (" + update + OperationRows.RETURNING + "), logged AS (" + columns
                    + " SELECT " + tenant + ", " + key + ", " + at + ", '" + EventKind.RECONCILED.dbName() + "', " + attempt
                    + ", 'unknown', " + actor + ", " + detail + ", " + trace + " WHERE EXISTS (SELECT 1 FROM written)"
                    + " UNION ALL SELECT " + tenant + ", " + key + ", " + at + ", '" + EventKind.ATTEMPT_STARTED.dbName() + "', "
                    + attempt + " + 1, 'started', " + actor + ", " + next + ", " + trace
                    + " WHERE " + retry + " AND EXISTS (SELECT 1 FROM written))"
                    + " SELECT * FROM written"), n + 1);
        }
    }

    static final LookupLogged SETTLE_LOOKUP_LOGGED = LookupLogged.of(SETTLE_LOOKUP);

    static final LookupLogged RETRY_LOGGED = LookupLogged.of(RETRY);

    static final LookupLogged AWAIT_SETTLE_LOGGED = LookupLogged.of(AWAIT_SETTLE);

    static final LookupLogged POSTPONE_LOGGED = LookupLogged.of(POSTPONE);

    static final LookupLogged RELEASE_LOGGED = LookupLogged.of(RELEASE);

    /** unknown and escalated → succeeded or failed_final, fenced by the escalated row as the resolver read it under the lock. */
    static final String RESOLVE = "WITH resolved AS (UPDATE agent_operation_log SET status = ?1, target_object_id = ?2,"
            + " error_code = ?3, response_json = CAST(?4 AS jsonb), lease_until = NULL, next_check_at = NULL, completed_at = ?5,"
            + " updated_at = ?5 WHERE tenant = ?6 AND operation_key = ?7 AND status = 'unknown' AND escalated_at IS NOT NULL"
            + " AND attempt_count = ?8 AND lease_epoch = ?9 AND CAST(?1 AS text) IN ('succeeded', 'failed_final')" + OperationRows.RETURNING + "),"
            + " logged AS (" + EVENT
            + "   SELECT tenant, operation_key, ?5, '" + RESOLVED.dbName() + "', attempt_count, status, ?10, ?11, CAST(?12 AS text)"
            + "   FROM resolved)"
            + " SELECT * FROM resolved";

    /** The row as its writer read it under the lock: never escalated, and only in a state an approval governs. */
    static final String AS_READ = " WHERE tenant = ?3 AND operation_key = ?4 AND status = ?5 AND attempt_count = ?6"
            + " AND lease_epoch = ?7 AND approval_id IS NOT DISTINCT FROM CAST(?8 AS text) AND escalated_at IS NULL";

    /** pending_approval, failed_retryable or started → failed_final with its approval_lapsed or declined event. */
    static final String LAPSE = "WITH lapsed AS (UPDATE agent_operation_log SET status = 'failed_final', error_code = ?1,"
            + " lease_until = NULL, next_check_at = NULL, completed_at = ?2, updated_at = ?2" + AS_READ
            + " AND status IN ('pending_approval', 'failed_retryable', 'started')" + OperationRows.RETURNING + "),"
            + " logged AS (" + EVENT + " SELECT tenant, operation_key, ?2, ?9, attempt_count, status, ?10, ?11, CAST(?12 AS text)"
            + " FROM lapsed)"
            + " SELECT * FROM lapsed";

    /** pending_approval: names approval ?1 at ?2, with its approved event by ?9 with detail ?10; the row comes back. */
    static final String APPROVE = "WITH approved AS (UPDATE agent_operation_log SET approval_id = ?1, updated_at = ?2" + AS_READ
            + " AND status = 'pending_approval'" + OperationRows.RETURNING + "),"
            + " logged AS (" + EVENT + " SELECT tenant, operation_key, ?2, '" + APPROVED.dbName() + "', attempt_count, status, ?9,"
            + " ?10, CAST(?11 AS text) FROM approved)"
            + " SELECT * FROM approved";
}
