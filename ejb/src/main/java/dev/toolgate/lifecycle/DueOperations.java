package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.SettleWindows;

import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationId;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.targets.RequestTimeouts;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Claims operations for the reconcile job: unknown ones whose look-up is due, and started ones whose lease lapsed (the
 * owner may have sent the request and died). SKIP LOCKED plus each claim's lease ({@link OperationWrites#LOOKUP}, the
 * one an agent's call takes) keep instances running the job at once from claiming the same operation.
 */
@Stateless
public class DueOperations {

    public static final String ACTOR = "reconciler";

    /** Candidates of each kind a claim looks at: its own 20 and room for four other claims on the same front of the queue. */
    static final int CANDIDATES = 100;

    /**
     * The due rows, locked, longest due first: unknown with a look-up due, started with a lapsed lease, and unknown with
     * no look-up set (a lapsed attempt's look-up cut short). Each branch stops after {@link #CANDIDATES}, so a claim
     * costs the same over any backlog; rows another claim holds are skipped, never waited for. The limit is written
     * into the text, not bound: with an unbound limit a pooled statement's generic plan reads and sorts every due row.
     */
    static final String DUE = "WITH candidates AS ("
            + " (SELECT tenant, operation_key, next_check_at AS due_at FROM agent_operation_log"
            + "   WHERE status = 'unknown' AND escalated_at IS NULL AND next_check_at <= ?2 AND (lease_until IS NULL OR lease_until <= ?1)"
            + "   ORDER BY next_check_at LIMIT " + CANDIDATES + ")"
            + " UNION ALL (SELECT tenant, operation_key, updated_at FROM agent_operation_log"
            + "   WHERE status = 'unknown' AND escalated_at IS NULL AND next_check_at IS NULL AND (lease_until IS NULL OR lease_until <= ?1)"
            + "   ORDER BY updated_at LIMIT " + CANDIDATES + ")"
            + " UNION ALL (SELECT tenant, operation_key, lease_until FROM agent_operation_log"
            + "   WHERE status = 'started' AND lease_until <= ?3 ORDER BY lease_until LIMIT " + CANDIDATES + "))"
            + " SELECT o.tenant, o.operation_key, o.status, o.target_system, o.lease_until"
            + " FROM candidates c JOIN agent_operation_log o ON o.tenant = c.tenant AND o.operation_key = c.operation_key"
            + " WHERE (o.status = 'unknown' AND o.escalated_at IS NULL"
            + "        AND (o.lease_until IS NULL OR o.lease_until <= ?1) AND (o.next_check_at IS NULL OR o.next_check_at <= ?2))"
            + "    OR (o.status = 'started' AND o.lease_until <= ?3)"
            + " ORDER BY c.due_at LIMIT ?4 FOR UPDATE OF o SKIP LOCKED";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

    private static final NumberedSql DUE_RUN = NumberedSql.of(DUE);

    /** Up to {@code limit} due operations, each now leased to the caller for a look-up, the longest due first. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<OperationView> claim(int limit) {
        Instant now = Instant.now();
        Connection journal = JournalConnections.of(em);
        JsonArrayBuilder claimed = JSON.createArrayBuilder();
        Map<OperationId, Boolean> lapsed = new LinkedHashMap<>();
        JournalConnections.run("the reconcile claim's read of due operations failed", () -> {
            // a larger claim gets what one can; the caller claims again
            try (PreparedStatement due = DUE_RUN.prepare(journal, Operation.at(now), Operation.at(now), Operation.at(now),
                    Math.min(limit, CANDIDATES)); ResultSet rows = due.executeQuery()) {
                while (rows.next()) {
                    String tenant = rows.getString(1);
                    String key = rows.getString(2);
                    boolean started = OperationStatus.STARTED.dbName().equals(rows.getString(3));
                    Instant settleAfter = started ? SettleWindows.afterLapsedLease(now, OperationRows.instant(rows, 5),
                            RequestTimeouts.longest(rows.getString(4)), settings.settleWindow()) : null;
                    claimed.add(Leases.claimed(tenant, key, settleAfter));
                    lapsed.put(new OperationId(tenant, key), started);
                }
                return null;
            }
        });
        return lapsed.isEmpty() ? List.of() : lease(journal, claimed.build().toString(), lapsed, now);
    }

    private List<OperationView> lease(Connection journal, String claimed, Map<OperationId, Boolean> lapsed, Instant now) {
        Map<OperationId, OperationView> byId = new LinkedHashMap<>();
        for (OperationView view : Leases.forLookUp(journal, claimed, now, settings.lease(), ACTOR)) {
            byId.put(new OperationId(view.tenant(), view.key()), view);
        }
        List<OperationView> inOrder = new ArrayList<>(byId.size());
        lapsed.forEach((id, wasStarted) -> {
            OperationView view = byId.get(id);
            Leases.logLookUp(view, wasStarted, ACTOR);
            inOrder.add(view);
        });
        return inOrder;
    }
}
