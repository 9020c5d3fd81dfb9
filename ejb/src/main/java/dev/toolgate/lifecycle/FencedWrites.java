package dev.toolgate.lifecycle;

import static dev.toolgate.lifecycle.OperationWrites.SET;
import static dev.toolgate.lifecycle.OperationWrites.SETTLE_ATTEMPT_LOGGED;
import static dev.toolgate.lifecycle.OperationWrites.EXTEND_SETTLE;
import static dev.toolgate.lifecycle.OperationWrites.ESCALATE;

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
 * ({@link OperationWrites#SETTLE_ATTEMPT_LOGGED}), else by its caller ({@link OperationWrites.LookupLogged}: the recorder,
 * which says why). The statements themselves are in {@link OperationWrites}; this binds and runs them.
 *
 * <p>They run by plain JDBC ({@link NumberedSql}) on the connection of the caller's transaction, the one its
 * entity manager uses ({@link JournalConnections#of}), and the rows they return are mapped by {@link OperationRows}:
 * through EclipseLink, mapping a returned row onto an entity and refreshing it cost the reconcile job more than a
 * third of its CPU in a profile. Each method builds its parameters by number, in the order the statement names them.
 */
public final class FencedWrites {

    private static final NumberedSql SETTLE_ATTEMPT_RUN = NumberedSql.of(SETTLE_ATTEMPT_LOGGED);
    private static final NumberedSql EXTEND_SETTLE_RUN = NumberedSql.of(EXTEND_SETTLE);
    private static final NumberedSql ESCALATE_RUN = NumberedSql.of(ESCALATE);

    private static final String FAILED = "a fenced write to the journal failed";

    private FencedWrites() {
    }

    /**
     * Runs a look-up's logged write ({@link OperationWrites.LookupLogged}), {@code update} holding the update's own parameters
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

    /** The parameters ?1 to ?12 of {@link OperationWrites#SET} and the fence after it, in one place for every statement built on it. */
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
