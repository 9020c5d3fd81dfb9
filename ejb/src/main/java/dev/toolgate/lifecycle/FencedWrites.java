package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.AttemptOutcomes;
import dev.toolgate.lifecycle.decisions.LookupDecision;
import dev.toolgate.lifecycle.decisions.SettleWindows;
import dev.toolgate.lifecycle.decisions.Transition;

import static dev.toolgate.lifecycle.OperationWrites.SET;
import static dev.toolgate.lifecycle.OperationWrites.SETTLE_ATTEMPT_LOGGED;
import static dev.toolgate.lifecycle.OperationWrites.EXTEND_SETTLE;
import static dev.toolgate.lifecycle.OperationWrites.ESCALATE;
import static dev.toolgate.lifecycle.OperationWrites.SETTLE_LOOKUPS;
import static dev.toolgate.lifecycle.OperationWrites.RETRIES;
import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.lifecycle.OperationWrites.LookupLogged;
import dev.toolgate.targets.Outcome;
import dev.toolgate.trace.Trace;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Binds and runs the fenced statements of {@link OperationWrites} that settle an operation, for {@link OutcomeRecorder}
 * and {@link LookupRecorder}. A statement that matches no row was fenced off; the statement or its caller journals why.
 * Plain JDBC on the caller's transaction's connection (docs/architecture.md, "Transactions", says why).
 */
public final class FencedWrites {

    private static final NumberedSql SETTLE_ATTEMPT_RUN = NumberedSql.of(SETTLE_ATTEMPT_LOGGED);
    private static final NumberedSql EXTEND_SETTLE_RUN = NumberedSql.of(EXTEND_SETTLE);
    private static final NumberedSql ESCALATE_RUN = NumberedSql.of(ESCALATE);
    private static final NumberedSql SETTLE_LOOKUPS_RUN = NumberedSql.of(SETTLE_LOOKUPS);
    private static final NumberedSql RETRIES_RUN = NumberedSql.of(RETRIES);

    private static final String FAILED = "a fenced write to the journal failed";

    private FencedWrites() {
    }

    /** {@code nextAttempt}: the next attempt's event detail when the write is a retry, else null. Empty when fenced out. */
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

    /** One row of {@link OperationWrites#SETTLE_LOOKUPS}: what {@link #set} binds for it, with its event's detail and trace. */
    static JsonObject settling(OperationView row, Transition to, Instant now, Duration settleWindow, String detail) {
        JsonObjectBuilder settle = JSON.createObjectBuilder().add("tenant", row.tenant()).add("operation_key", row.key())
                .add("attempt", row.attemptCount()).add("epoch", row.leaseEpoch()).add("status", to.status().dbName())
                .add("detail", detail);
        optional(settle, "object_id", to.objectId());
        if (to.result() != null) {
            settle.add("response", to.result());
        }
        optional(settle, "error_code", to.errorCode());
        optional(settle, "next_check_at", to.nextCheckAt());
        optional(settle, "completed_at", to.status().isTerminal() ? now : null);
        optional(settle, "settle_after", to.status() == OperationStatus.UNKNOWN ? now.plus(settleWindow) : null);
        optional(settle, "trace_id", row.traceId());
        return settle.build();
    }

    /** The rows {@code settling} names that the fence let through, as written; one statement, their events in it. */
    static List<OperationView> settleLookups(Connection c, JsonArray settling, Instant now, String actor) {
        return JournalConnections.run(FAILED, () -> {
            try (PreparedStatement statement = SETTLE_LOOKUPS_RUN.prepare(c, settling.toString(), Operation.at(now), actor)) {
                return OperationRows.all(statement);
            }
        });
    }

    /** One row of {@link OperationWrites#RETRIES}: its fence as read under its lock, its two events' details and trace. */
    static JsonObject retrying(OperationView row, String detail, String nextAttempt) {
        JsonObjectBuilder retry = JSON.createObjectBuilder().add("tenant", row.tenant()).add("operation_key", row.key())
                .add("attempt", row.attemptCount()).add("epoch", row.leaseEpoch()).add("detail", detail).add("next_detail", nextAttempt);
        optional(retry, "trace_id", row.traceId());
        return retry.build();
    }

    /** The rows {@code retrying} names that the fence let through, each now its next attempt's, leased for {@code lease}. */
    static List<OperationView> retryAll(Connection c, JsonArray retrying, Instant now, Duration lease, String actor) {
        return JournalConnections.run(FAILED, () -> {
            try (PreparedStatement statement = RETRIES_RUN.prepare(c, retrying.toString(), Operation.at(now.plus(lease)),
                    Operation.at(now), actor)) {
                return OperationRows.all(statement);
            }
        });
    }

    private static void optional(JsonObjectBuilder row, String name, Object value) {
        if (value != null) {
            row.add(name, value.toString());
        }
    }

    /** The settled row, or empty when the fence refused the write (the event then says so). */
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

    /** The parameters ?1 to ?12 of {@link OperationWrites#SET} and its fence, for every statement built on it. */
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
