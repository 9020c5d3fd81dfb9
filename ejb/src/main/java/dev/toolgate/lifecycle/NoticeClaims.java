package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.NoticeDecisions;

import static dev.toolgate.operation.EventKind.NOTIFIED;

import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationView;
import dev.toolgate.trace.Trace;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the operation a notification names and, when {@link NoticeDecisions} allows, leases it for a look-up by the
 * same statement the reconcile job uses ({@link Leases#holdForReconcile}), the receipt journaled as an event. The
 * look-up itself is the {@link OperationLoop}'s, after this commits.
 */
@Stateless
public class NoticeClaims {

    public static final String ACTOR = "notification";

    /** Our operations that recorded one target object: two would be a journal a person must look at, and pick neither. */
    static final String BY_OBJECT = "SELECT operation_key FROM agent_operation_log"
            + " WHERE tenant = ? AND target_object_id = ? AND target_system = ? LIMIT 2";

    static final String OUTSTANDING = "SELECT 1 FROM agent_operation_log WHERE status IN ('unknown', 'started') AND target_system = ?";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;
    @Inject
    JournalSettings settings;

    public sealed interface Claim {
        record Leased(OperationView operation) implements Claim {
        }

        /** {@code leaseUntil}: when a {@code busy} row's holder's lease ends, else null. */
        record Refused(String reason, Instant leaseUntil) implements Claim {
        }
    }

    /** {@code receipt}: what arrived, in words with no value from the body but checked ids. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Claim claim(String tenant, String key, String target, String objectId, String receipt) {
        Instant now = Instant.now();
        Connection journal = JournalConnections.of(em);
        OperationView row = JournalConnections.run("the journal's locked read of a notified operation failed",
                () -> OperationRows.byKeyLocked(journal, tenant, key)).orElse(null);
        if (NoticeDecisions.decide(row, target, objectId, now) instanceof NoticeDecisions.NoticeDecision.Refuse refuse) {
            return new Claim.Refused(refuse.reason(), "busy".equals(refuse.reason()) ? row.leaseUntil() : null);
        }
        try (Trace trace = Trace.open(row.traceId(), row.key())) { // its events join the operation's trace
            EventLog.append(em, row, ACTOR, NOTIFIED, now, row.attemptCount(), row.status(), receipt);
            return new Claim.Leased(Leases.holdForReconcile(journal, row, ACTOR, now, settings));
        }
    }

    /** Whether any operation at {@code target} is unknown or started; if none, the target need not be asked whose object it is. */
    public boolean anyOutstanding(String tenant, String target) {
        Connection journal = JournalConnections.of(em);
        return JournalConnections.run("the journal's read of outstanding operations failed", () -> {
            try (PreparedStatement read = journal.prepareStatement((tenant == null ? OUTSTANDING : OUTSTANDING + " AND tenant = ?") + " LIMIT 1")) {
                read.setString(1, target);
                if (tenant != null) {
                    read.setString(2, tenant);
                }
                try (ResultSet rows = read.executeQuery()) {
                    return rows.next();
                }
            }
        });
    }

    public Optional<String> keyOfObject(String tenant, String target, String objectId) {
        Connection journal = JournalConnections.of(em);
        List<String> keys = JournalConnections.run("the journal's read of a notified object failed", () -> {
            try (PreparedStatement read = journal.prepareStatement(BY_OBJECT)) {
                read.setString(1, tenant);
                read.setString(2, objectId);
                read.setString(3, target);
                List<String> found = new ArrayList<>(2);
                try (ResultSet rows = read.executeQuery()) {
                    while (rows.next()) {
                        found.add(rows.getString(1));
                    }
                }
                return found;
            }
        });
        return keys.size() == 1 ? Optional.of(keys.get(0)) : Optional.empty();
    }
}
