package dev.toolgate.lifecycle;

import dev.toolgate.journal.EventKind;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.targets.Outcome;
import dev.toolgate.trace.Trace;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

/**
 * The fenced statements that settle an operation, each naming the attempt, lease epoch and status it
 * expects, none touching an escalated row (docs/lifecycle.md): shared by {@link OutcomeRecorder} (an
 * attempt's outcome) and {@link LookupRecorder} (a look-up's result). A statement that matches no row
 * was fenced off, and the refusal is journaled: by the statement itself where it carries its event
 * ({@link #SETTLE_ATTEMPT_LOGGED}), else by its caller ({@link LookupLogged}: the recorder, which says why).
 *
 * <p>They run by plain JDBC ({@link NumberedSql}) on the connection of the caller's transaction, the one its
 * entity manager uses ({@link JournalConnections#of}), and the rows they return are mapped by {@link OperationRows}:
 * through EclipseLink, mapping a returned row onto an entity and refreshing it cost the reconcile job more than a
 * third of its CPU in a profile. Each method builds its parameters by number, in the order the statement names them.
 */
public final class FencedWrites {

    private static final String SET = "UPDATE agent_operation_log SET status = ?1, target_object_id = ?2,"
            + " response_json = CAST(?3 AS jsonb), error_code = ?4, lease_until = NULL,"
            + " next_check_at = CAST(?5 AS timestamptz), completed_at = CAST(?6 AS timestamptz), updated_at = ?7,"
            + " settle_after = CAST(?8 AS timestamptz)"
            + " WHERE tenant = ?9 AND operation_key = ?10 AND attempt_count = ?11 AND escalated_at IS NULL";

    /**
     * The attempt's owner settles its row while it holds the lease; after the lease lapsed and a look-up
     * took the row over, only its success still settles it ({@link AttemptOutcomes#settlesAfterLeaseLapsed}).
     */
    public static final String SETTLE_ATTEMPT = SET
            + " AND ((status = 'started' AND lease_epoch = ?12) OR (status = 'unknown' AND CAST(?13 AS boolean)))";

    /**
     * {@link #SETTLE_ATTEMPT} and the outcome's event in one statement, one round trip: the event is
     * {@code outcome} when the row was settled and {@code outcome_refused} when the fence kept it out,
     * and the settled row comes back (no row when refused), so the answer is built from what the
     * journal now holds without reading it again. A constant (the kinds written out, FencedWritesIT
     * checks them), so the benchmark's JDBC floor compiles it in.
     */
    public static final String SETTLE_ATTEMPT_LOGGED = "WITH settled AS (" + SETTLE_ATTEMPT + OperationRows.RETURNING + "),"
            + " logged AS (INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, attempt, status, http_status,"
            + " error_class, duration_ms, actor, detail, trace_id) VALUES (?9, ?10, ?7,"
            + " CASE WHEN EXISTS (SELECT 1 FROM settled) THEN 'outcome' ELSE 'outcome_refused' END," // EventKind's names
            + " ?11, ?1, CAST(?14 AS integer), ?15, CAST(?16 AS integer), ?17, ?18, ?19))"
            + " SELECT * FROM settled";

    /** A look-up settles the unknown row it was leased for, and nothing else. */
    static final String SETTLE_LOOKUP = SET + " AND status = 'unknown' AND lease_epoch = ?12";

    /** Absent after the settle window: the next attempt, under a lease of its own, its look-ups counted afresh. */
    static final String RETRY = "UPDATE agent_operation_log SET status = 'started', attempt_count = attempt_count + 1,"
            + " lease_epoch = lease_epoch + 1, lease_until = ?1, next_check_at = NULL, error_code = NULL, reconcile_count = 0,"
            + " settle_after = NULL, updated_at = ?2"
            + " WHERE tenant = ?3 AND operation_key = ?4 AND attempt_count = ?5 AND lease_epoch = ?6 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    // back-off doubles per failed look-up: 1 s, 2 s, 4 s … up to the ceiling; escalated when LookupDecisions says so
    static final String POSTPONE = "UPDATE agent_operation_log SET lease_until = NULL,"
            + " next_check_at = CAST(?1 AS timestamptz) + make_interval(secs => LEAST(?2, 2 ^ LEAST(reconcile_count, 30))),"
            + " reconcile_count = reconcile_count + 1,"
            + " escalated_at = CASE WHEN CAST(?3 AS boolean) THEN CAST(?4 AS timestamptz) END,"
            + " error_code = ?5, updated_at = ?6"
            + " WHERE tenant = ?7 AND operation_key = ?8 AND attempt_count = ?9 AND lease_epoch = ?10 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    /**
     * An attempt whose lease a look-up took over reports that it has just given up on its request: the
     * target may still be executing it, so absence proves nothing until a settle window from now.
     */
    static final String EXTEND_SETTLE = "UPDATE agent_operation_log SET settle_after = GREATEST(settle_after, CAST(?1 AS timestamptz)),"
            + " updated_at = ?2 WHERE tenant = ?3 AND operation_key = ?4 AND attempt_count = ?5 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    static final String AWAIT_SETTLE = "UPDATE agent_operation_log SET lease_until = NULL,"
            + " next_check_at = settle_after, updated_at = ?1"
            + " WHERE tenant = ?2 AND operation_key = ?3 AND attempt_count = ?4 AND lease_epoch = ?5 AND status = 'unknown'"
            + " AND escalated_at IS NULL";

    /** A person must look at an unsettled operation now (a contradicting effect); nothing automatic touches it after. */
    static final String ESCALATE = "UPDATE agent_operation_log SET escalated_at = CAST(?1 AS timestamptz), updated_at = ?2"
            + " WHERE tenant = ?3 AND operation_key = ?4 AND status = 'unknown' AND escalated_at IS NULL";

    /**
     * A look-up's fenced write and its events in one statement, the written row returned (none when the fence
     * kept the write out), so nothing is read again: the look-up's {@code reconciled} event, and after it a
     * written retry's {@code attempt_started} for the next attempt. A write the fence kept out journals nothing
     * here: {@link LookupRecorder} then reads the row to say why, and journals the refusal with that. The
     * update's own parameters keep their numbers; the events' follow them.
     */
    record LookupLogged(NumberedSql sql, int firstEventParameter) {

        static LookupLogged of(String update) {
            int n = NumberedSql.of(update).parameters();
            String tenant = "?" + (n + 1), key = "?" + (n + 2), at = "CAST(?" + (n + 3) + " AS timestamptz)";
            String attempt = "CAST(?" + (n + 4) + " AS integer)", actor = "?" + (n + 5), detail = "?" + (n + 6);
            String trace = "CAST(?" + (n + 7) + " AS text)", retry = "CAST(?" + (n + 8) + " AS boolean)", next = "?" + (n + 9);
            String columns = " INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, attempt, status, actor, detail, trace_id)";
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

    private static final NumberedSql SETTLE_ATTEMPT_RUN = NumberedSql.of(SETTLE_ATTEMPT_LOGGED);
    private static final NumberedSql EXTEND_SETTLE_RUN = NumberedSql.of(EXTEND_SETTLE);
    private static final NumberedSql ESCALATE_RUN = NumberedSql.of(ESCALATE);

    private static final String FAILED = "a fenced write to the journal failed";

    private FencedWrites() {
    }

    /**
     * Runs a look-up's logged write ({@link LookupLogged}), {@code update} holding the update's own parameters
     * by number; {@code nextAttempt} is the detail of the next attempt's event when the write is a retry, else
     * null. The written row, or empty when the fence kept the write out.
     */
    static Optional<OperationView> lookedUp(Connection c, LookupLogged logged, Object[] update, OperationView row, Instant now,
                                            String actor, String detail, String nextAttempt) {
        int e = logged.firstEventParameter() - 1;
        if (update.length != e) {
            throw new IllegalArgumentException("the update takes " + e + " parameters, given " + update.length);
        }
        Object[] values = Arrays.copyOf(update, e + 9);
        values[e] = row.tenant();
        values[e + 1] = row.key();
        values[e + 2] = Operation.at(now);
        values[e + 3] = row.attemptCount();
        values[e + 4] = actor;
        values[e + 5] = detail;
        values[e + 6] = Trace.traceId();
        values[e + 7] = nextAttempt != null;
        values[e + 8] = nextAttempt;
        return returning(c, logged.sql(), values);
    }

    /**
     * Settles the attempt {@code row} describes and journals the outcome's event with it; the settled
     * row, or empty when the fence refused the write (the event then says so). The event's own columns
     * reuse SET's parameters (status ?1, time ?7, tenant ?9, key ?10, attempt ?11) and add ?14 on (?13 is the fence's).
     */
    static Optional<OperationView> settleAttempt(Connection c, OperationView row, Transition to, Instant now, Duration settleWindow,
                                                 String actor, Outcome outcome, long durationMs, String detail) {
        Object[] values = Arrays.copyOf(set(row, to, now, settleWindow), 19);
        values[12] = AttemptOutcomes.settlesAfterLeaseLapsed(to);
        values[13] = outcome.httpStatus();
        values[14] = outcome.errorClass();
        values[15] = (int) Math.min(durationMs, Integer.MAX_VALUE);
        values[16] = actor;
        values[17] = detail;
        values[18] = Trace.traceId();
        return returning(c, SETTLE_ATTEMPT_RUN, values);
    }

    /** The parameters ?1 to ?12 of {@link #SET} and the fence after it, in one place for every statement built on it. */
    static Object[] set(OperationView row, Transition to, Instant now, Duration settleWindow) {
        boolean unknown = to.status() == OperationStatus.UNKNOWN;
        return new Object[] {to.status().dbName(), to.objectId(), to.result() == null ? null : CanonicalJson.write(to.result()),
                to.errorCode(), Operation.at(to.nextCheckAt()), to.status().isTerminal() ? Operation.at(now) : null,
                Operation.at(now), unknown ? Operation.at(now.plus(settleWindow)) : null,
                row.tenant(), row.key(), row.attemptCount(), row.leaseEpoch()};
    }

    static Object[] retry(OperationView row, Instant now, Duration lease) {
        return new Object[] {Operation.at(now.plus(lease)), Operation.at(now), row.tenant(), row.key(), row.attemptCount(),
                row.leaseEpoch()};
    }

    static Object[] awaitSettle(OperationView row, Instant now) {
        return new Object[] {Operation.at(now), row.tenant(), row.key(), row.attemptCount(), row.leaseEpoch()};
    }

    static Object[] postpone(OperationView row, LookupDecision.Postpone postpone, Instant now, int maxBackoffSeconds) {
        return new Object[] {Operation.at(now), maxBackoffSeconds, postpone.escalateNow(), Operation.at(now), postpone.errorCode(),
                Operation.at(now), row.tenant(), row.key(), row.attemptCount(), row.leaseEpoch()};
    }

    static void extendSettle(Connection c, OperationView row, Instant now, Duration settleWindow) {
        update(c, EXTEND_SETTLE_RUN, Operation.at(SettleWindows.afterUnknownOutcome(now, settleWindow)), Operation.at(now),
                row.tenant(), row.key(), row.attemptCount());
    }

    static int escalate(Connection c, OperationView row, Instant now) {
        return update(c, ESCALATE_RUN, Operation.at(now), Operation.at(now), row.tenant(), row.key());
    }

    private static Optional<OperationView> returning(Connection c, NumberedSql sql, Object... values) {
        return JournalConnections.run(FAILED, () -> {
            try (PreparedStatement statement = sql.prepare(c, values)) {
                return OperationRows.first(statement);
            }
        });
    }

    private static int update(Connection c, NumberedSql sql, Object... values) {
        return JournalConnections.run(FAILED, () -> {
            try (PreparedStatement statement = sql.prepare(c, values)) {
                return statement.executeUpdate();
            }
        });
    }
}
