package dev.toolgate.lifecycle;

import static dev.toolgate.canonical.Jsons.JSON;
import static dev.toolgate.journal.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.journal.EventKind.LEASE_EXPIRED;
import static dev.toolgate.journal.EventKind.RECONCILE_STARTED;

import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import dev.toolgate.targets.RequestTimeouts;
import dev.toolgate.trace.Trace;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Taking a lease on a row, each kind one statement with its events, in one place: a look-up's lease, which the
 * agent's capture takes on one row and the reconcile job's claim ({@link DueOperations}) on a batch, the
 * next attempt's lease the capture takes, and a lease renewed by its holder ({@link LeaseRenewals}). Plain JDBC on the caller's transaction ({@link NumberedSql} says why).
 */
final class Leases {

    /** The detail of the event a look-up's lease leaves. */
    static final String LOOKUP_LEASED = "look-up by key leased";
    /** The detail of the event an attempt whose lease lapsed without an outcome leaves; %d: its attempt. */
    static final String LAPSED = "the owner of attempt %d did not record an outcome in time";
    /** The detail of the event a new attempt's lease leaves. */
    static final String ATTEMPT_LEASED = "attempt leased";

    /**
     * Leases every claimed row (?1: a JSON array of {tenant, operation_key, lapsed, settle_after}) for a look-up:
     * unknown, the next lease epoch (whoever held the row before holds nothing: their writes name an older epoch),
     * held until ?2. A lapsed attempt's row gets its settle window ({@link SettleWindows#afterLapsedLease}: it may
     * still be running at the target) and a lease_expired event before the reconcile_started event every claimed
     * row gets. The leased rows come back whole.
     */
    static final String LOOKUP = "WITH claimed AS (SELECT * FROM jsonb_to_recordset(CAST(?1 AS jsonb))"
            + "   AS c(tenant text, operation_key text, lapsed boolean, settle_after timestamptz)),"
            + " leased AS (UPDATE agent_operation_log o SET status = 'unknown', lease_epoch = o.lease_epoch + 1,"
            + "   lease_until = ?2, updated_at = ?3, settle_after = CASE WHEN c.lapsed THEN c.settle_after ELSE o.settle_after END"
            + "   FROM claimed c WHERE o.tenant = c.tenant AND o.operation_key = c.operation_key" + OperationRows.returning("o") + "),"
            + " logged AS (INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, attempt, status, actor, detail, trace_id)"
            + "   SELECT tenant, operation_key, ?3, kind, attempt_count, 'unknown', ?4, detail, CAST(?5 AS text) FROM ("
            + "     SELECT l.tenant, l.operation_key, l.attempt_count, 0 AS step, '" + LEASE_EXPIRED.dbName() + "' AS kind,"
            + "       replace('" + LAPSED + "', '%d', CAST(l.attempt_count AS text)) AS detail"
            + "       FROM leased l JOIN claimed c ON c.tenant = l.tenant AND c.operation_key = l.operation_key WHERE c.lapsed"
            + "     UNION ALL SELECT tenant, operation_key, attempt_count, 1, '" + RECONCILE_STARTED.dbName() + "', '" + LOOKUP_LEASED + "'"
            + "       FROM leased) e ORDER BY tenant, operation_key, step)"
            + " SELECT * FROM leased";

    /**
     * failed_retryable or approved pending_approval → started: the next attempt, leased to this caller until ?1,
     * under the next lease epoch, with its attempt_started event. Fenced by the attempt and epoch the capture
     * decided on under the row lock.
     */
    static final String NEXT_ATTEMPT = "WITH started AS (UPDATE agent_operation_log SET status = 'started',"
            + " attempt_count = attempt_count + 1, lease_epoch = lease_epoch + 1, lease_until = ?1, next_check_at = NULL, updated_at = ?2"
            + " WHERE tenant = ?3 AND operation_key = ?4 AND attempt_count = ?5 AND lease_epoch = ?6"
            + " AND status IN ('failed_retryable', 'pending_approval')" + OperationRows.RETURNING + "),"
            + " logged AS (INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, attempt, status, actor, detail, trace_id)"
            + "   SELECT tenant, operation_key, ?2, '" + ATTEMPT_STARTED.dbName() + "', attempt_count, 'started', ?7, '" + ATTEMPT_LEASED + "',"
            + "   CAST(?8 AS text) FROM started)"
            + " SELECT * FROM started";

    /**
     * started or unknown: the same lease, holder and epoch, held until ?1 from ?2 — its holder renews it. Fenced by the
     * lease its holder names (status ?5, attempt ?6, epoch ?7), never on an escalated row; no event (a renewal changes
     * no state). The renewed row comes back, none when another holder took the row or it moved on.
     */
    static final String RENEW = "UPDATE agent_operation_log SET lease_until = ?1, updated_at = ?2"
            + " WHERE tenant = ?3 AND operation_key = ?4 AND status = ?5 AND attempt_count = ?6 AND lease_epoch = ?7"
            + " AND escalated_at IS NULL AND status IN ('started', 'unknown')" + OperationRows.RETURNING;

    private static final NumberedSql LOOKUP_RUN = NumberedSql.of(LOOKUP);
    private static final NumberedSql NEXT_ATTEMPT_RUN = NumberedSql.of(NEXT_ATTEMPT);
    private static final NumberedSql RENEW_RUN = NumberedSql.of(RENEW);

    private Leases() {
    }

    /** One row's entry in {@link #LOOKUP}'s claim; {@code settleAfter} only for a row whose attempt's lease lapsed. */
    static JsonObject claimed(String tenant, String key, Instant settleAfter) {
        JsonObjectBuilder item = JSON.createObjectBuilder().add("tenant", tenant).add("operation_key", key).add("lapsed", settleAfter != null);
        return (settleAfter == null ? item.addNull("settle_after") : item.add("settle_after", settleAfter.toString())).build();
    }

    /** Leases the {@code claimed} rows ({@link #LOOKUP}) to {@code actor} for a look-up; the leased rows. */
    static List<OperationView> forLookUp(Connection c, String claimed, Instant now, Duration lease, String actor) {
        return JournalConnections.run("the journal's lease of operations for a look-up failed", () -> {
            try (PreparedStatement statement = LOOKUP_RUN.prepare(c, claimed, Operation.at(now.plus(lease)), Operation.at(now), actor,
                    Trace.traceId())) {
                return OperationRows.all(statement);
            }
        });
    }

    /** The log lines of the events {@link #LOOKUP} journaled for one row (the statement wrote the events themselves). */
    static void logLookUp(OperationView leased, boolean lapsed, String actor) {
        if (lapsed) {
            EventLog.logOnCommit(leased, actor, LEASE_EXPIRED, leased.attemptCount(), OperationStatus.UNKNOWN,
                    String.format(LAPSED, leased.attemptCount()));
        }
        EventLog.logOnCommit(leased, actor, RECONCILE_STARTED, leased.attemptCount(), OperationStatus.UNKNOWN, LOOKUP_LEASED);
    }

    /** The capture's Reconcile on the locked row {@code before}: the same look-up lease the job's claim takes. */
    static OperationView holdForReconcile(Connection c, OperationView before, String actor, Instant now, JournalSettings settings) {
        boolean lapsed = before.status() == OperationStatus.STARTED;
        Instant settleAfter = lapsed
                ? SettleWindows.afterLapsedLease(now, before.leaseUntil(), RequestTimeouts.longest(before.target()), settings.settleWindow())
                : null;
        String claim = JSON.createArrayBuilder().add(claimed(before.tenant(), before.key(), settleAfter)).build().toString();
        OperationView leased = single(forLookUp(c, claim, now, settings.lease(), actor), before);
        logLookUp(leased, lapsed, actor);
        return leased;
    }

    /** The capture's Execute on the locked row {@code before}: the next attempt's lease ({@link #NEXT_ATTEMPT}). */
    static OperationView startNextAttempt(Connection c, OperationView before, String actor, Instant now, Duration lease) {
        List<OperationView> started = JournalConnections.run("the journal's lease of the next attempt failed", () -> {
            try (PreparedStatement statement = NEXT_ATTEMPT_RUN.prepare(c, Operation.at(now.plus(lease)), Operation.at(now), before.tenant(),
                    before.key(), before.attemptCount(), before.leaseEpoch(), actor, Trace.traceId())) {
                return OperationRows.all(statement);
            }
        });
        OperationView leased = single(started, before);
        EventLog.logOnCommit(leased, actor, ATTEMPT_STARTED, leased.attemptCount(), OperationStatus.STARTED, ATTEMPT_LEASED);
        return leased;
    }

    /**
     * {@link #RENEW}: the lease {@code held} names (its attempt and epoch, on a row that is {@code status}), a full
     * {@code lease} from now; empty when it is not its holder's now.
     */
    static Optional<OperationView> renew(Connection c, OperationView held, OperationStatus status, Instant now, Duration lease) {
        return JournalConnections.run("the journal's renewal of a lease failed", () -> {
            try (PreparedStatement statement = RENEW_RUN.prepare(c, Operation.at(now.plus(lease)), Operation.at(now), held.tenant(),
                    held.key(), status.dbName(), held.attemptCount(), held.leaseEpoch())) {
                return OperationRows.first(statement);
            }
        });
    }

    /** The one row a lease of a locked row wrote: none means the lock did not hold what was decided on, a bug. */
    private static OperationView single(List<OperationView> written, OperationView before) {
        if (written.size() != 1) {
            throw new IllegalStateException("the lease of " + before.key() + " under its row lock wrote " + written.size() + " rows");
        }
        return written.get(0);
    }
}
