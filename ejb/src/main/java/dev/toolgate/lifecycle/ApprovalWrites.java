package dev.toolgate.lifecycle;

import static dev.toolgate.lifecycle.OperationWrites.LAPSE;
import static dev.toolgate.lifecycle.OperationWrites.APPROVE;

import static dev.toolgate.operation.EventKind.APPROVED;

import dev.toolgate.approval.ApprovalTransitions;
import dev.toolgate.operation.EventKind;
import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.trace.Trace;
import jakarta.enterprise.context.Dependent;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.Optional;

/**
 * What an approval does to its operation's row ({@link OperationWrites#APPROVE}, {@link OperationWrites#LAPSE}),
 * behind {@link ApprovalTransitions}. Every caller holds the row lock, so a write fenced out by a stale reading is a
 * bug, and throws.
 */
@Dependent
public class ApprovalWrites implements ApprovalTransitions {

    private static final NumberedSql LAPSE_RUN = NumberedSql.of(LAPSE);
    private static final NumberedSql APPROVE_RUN = NumberedSql.of(APPROVE);

    /** {@link OperationWrites#LAPSE} on {@code before}; empty when the row is no longer as {@code before} read it. */
    static Optional<OperationView> lapse(Connection c, OperationView before, String code, EventKind kind, String actor, Instant now,
                                         String detail) {
        Optional<OperationView> lapsed = run(LAPSE_RUN, c, code, Operation.at(now), before.tenant(), before.key(),
                before.status().dbName(), before.attemptCount(), before.leaseEpoch(), before.approvalId(), kind.dbName(), actor, detail,
                Trace.traceId());
        lapsed.ifPresent(row -> EventLog.logOnCommit(row, actor, kind, row.attemptCount(), OperationStatus.FAILED_FINAL, detail));
        return lapsed;
    }

    static Optional<OperationView> approve(Connection c, OperationView before, String approvalId, String actor, Instant now,
                                           String detail) {
        Optional<OperationView> approved = run(APPROVE_RUN, c, approvalId, Operation.at(now), before.tenant(), before.key(),
                before.status().dbName(), before.attemptCount(), before.leaseEpoch(), before.approvalId(), actor, detail,
                Trace.traceId());
        approved.ifPresent(row -> EventLog.logOnCommit(row, actor, APPROVED, row.attemptCount(), row.status(), detail));
        return approved;
    }

    /** The row a write under its row lock wrote: none means the lock did not hold what was decided on, a bug. */
    static OperationView underLock(Optional<OperationView> written, OperationView before) {
        return written.orElseThrow(() -> new IllegalStateException("the write to " + before.key() + " under its row lock matched no row"));
    }

    @Override
    public OperationView approved(Connection c, OperationView before, String approvalId, String actor, Instant now, String detail) {
        return underLock(approve(c, before, approvalId, actor, now, detail), before);
    }

    @Override
    public OperationView lapsed(Connection c, OperationView before, String code, EventKind kind, String actor, Instant now,
                                String detail) {
        return underLock(lapse(c, before, code, kind, actor, now, detail), before);
    }

    private static Optional<OperationView> run(NumberedSql sql, Connection c, Object... values) {
        return JournalConnections.run("the journal's write of an approval's transition failed", () -> {
            try (PreparedStatement statement = sql.prepare(c, values)) {
                return OperationRows.first(statement);
            }
        });
    }
}
