package dev.toolgate.lifecycle;

import static dev.toolgate.lifecycle.OperationWrites.RESOLVE;

import static dev.toolgate.operation.EventKind.RESOLVED;

import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.trace.Trace;
import jakarta.json.JsonObject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.Optional;

/** The one write to an escalated row: a person's settlement with its result and {@code resolved} event, in one statement. */
public final class Resolutions {

    private static final NumberedSql RESOLVE_RUN = NumberedSql.of(RESOLVE);

    private Resolutions() {
    }

    static Optional<OperationView> resolve(Connection c, OperationView before, OperationStatus to, String objectId, String code,
                                           JsonObject result, String actor, Instant now, String detail) {
        Optional<OperationView> resolved = JournalConnections.run("the journal's write of a resolution failed", () -> {
            try (PreparedStatement statement = RESOLVE_RUN.prepare(c, to.dbName(), objectId, code, CanonicalJson.write(result),
                    Operation.at(now), before.tenant(), before.key(), before.attemptCount(), before.leaseEpoch(), actor, detail,
                    Trace.traceId())) {
                return OperationRows.first(statement);
            }
        });
        resolved.ifPresent(row -> EventLog.logOnCommit(row, actor, RESOLVED, row.attemptCount(), to, detail));
        return resolved;
    }

    /** {@code before} was read and locked by the caller, so a fence miss means the lock did not hold: it throws. */
    public static OperationView resolved(Connection c, OperationView before, OperationStatus to, String objectId, String code,
                                         JsonObject result, String actor, Instant now, String detail) {
        return ApprovalWrites.underLock(resolve(c, before, to, objectId, code, result, actor, now, detail), before);
    }
}
