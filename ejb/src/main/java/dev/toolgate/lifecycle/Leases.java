package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.SettleWindows;

import static dev.toolgate.lifecycle.OperationWrites.LOOKUP_LEASED;
import static dev.toolgate.lifecycle.OperationWrites.LAPSED;
import static dev.toolgate.lifecycle.OperationWrites.ATTEMPT_LEASED;
import static dev.toolgate.lifecycle.OperationWrites.LOOKUP;
import static dev.toolgate.lifecycle.OperationWrites.NEXT_ATTEMPT;
import static dev.toolgate.lifecycle.OperationWrites.RENEW;

import static dev.toolgate.canonical.Jsons.JSON;
import static dev.toolgate.operation.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.operation.EventKind.LEASE_EXPIRED;
import static dev.toolgate.operation.EventKind.RECONCILE_STARTED;

import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
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
 * Taking a lease on a row, each kind one statement with its events: a look-up's lease (an agent's capture on one row,
 * {@link DueOperations} on a batch), the next attempt's, and a renewal ({@link LeaseRenewals}).
 */
final class Leases {

    private static final NumberedSql LOOKUP_RUN = NumberedSql.of(LOOKUP);
    private static final NumberedSql NEXT_ATTEMPT_RUN = NumberedSql.of(NEXT_ATTEMPT);
    private static final NumberedSql RENEW_RUN = NumberedSql.of(RENEW);

    private Leases() {
    }

    /** One row's entry in {@link OperationWrites#LOOKUP}'s claim; {@code settleAfter} only for a row whose attempt's lease lapsed. */
    static JsonObject claimed(String tenant, String key, Instant settleAfter) {
        JsonObjectBuilder item = JSON.createObjectBuilder().add("tenant", tenant).add("operation_key", key).add("lapsed", settleAfter != null);
        return (settleAfter == null ? item.addNull("settle_after") : item.add("settle_after", settleAfter.toString())).build();
    }

    static List<OperationView> forLookUp(Connection c, String claimed, Instant now, Duration lease, String actor) {
        return JournalConnections.run("the journal's lease of operations for a look-up failed", () -> {
            try (PreparedStatement statement = LOOKUP_RUN.prepare(c, claimed, Operation.at(now.plus(lease)), Operation.at(now), actor,
                    Trace.traceId())) {
                return OperationRows.all(statement);
            }
        });
    }

    /** Log lines of the events {@link OperationWrites#LOOKUP} wrote for one row. */
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

    /** A full {@code lease} from now on the lease {@code held} names; empty when it is not its holder's now. */
    static Optional<OperationView> renew(Connection c, OperationView held, OperationStatus status, Instant now, Duration lease) {
        return JournalConnections.run("the journal's renewal of a lease failed", () -> {
            try (PreparedStatement statement = RENEW_RUN.prepare(c, Operation.at(now.plus(lease)), Operation.at(now), held.tenant(),
                    held.key(), status.dbName(), held.attemptCount(), held.leaseEpoch())) {
                return OperationRows.first(statement);
            }
        });
    }

    private static OperationView single(List<OperationView> written, OperationView before) {
        if (written.size() != 1) {
            throw new IllegalStateException("the lease of " + before.key() + " under its row lock wrote " + written.size() + " rows");
        }
        return written.get(0);
    }
}
