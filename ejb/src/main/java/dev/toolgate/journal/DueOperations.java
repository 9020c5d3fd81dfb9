package dev.toolgate.journal;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Claims operations for the reconcile job: unknown ones whose next look-up is due, and started ones
 * whose lease expired (their owner may have sent the request and died). SKIP LOCKED plus the lease
 * each claim takes mean instances running the job at once never claim the same operation.
 */
@Stateless
public class DueOperations {

    /** Whom the journal names as the actor of what the job does. */
    public static final String ACTOR = "reconciler";

    /** The due rows whole, locked, as managed entities: leasing them needs no second read per row. */
    private static final String DUE = "SELECT * FROM agent_operation_log"
            + " WHERE (status = 'unknown' AND escalated_at IS NULL"
            + "        AND (lease_until IS NULL OR lease_until <= ?1) AND (next_check_at IS NULL OR next_check_at <= ?2))"
            + "    OR (status = 'started' AND lease_until <= ?3)"
            + " ORDER BY updated_at LIMIT ?4 FOR UPDATE SKIP LOCKED";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

    /** Up to {@code limit} due operations, each now leased to the caller for a look-up. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<OperationView> claim(int limit) {
        Instant now = Instant.now();
        List<?> rows = em.createNativeQuery(DUE, Operation.class)
                .setParameter(1, Operation.at(now))
                .setParameter(2, Operation.at(now))
                .setParameter(3, Operation.at(now))
                .setParameter(4, limit)
                .getResultList();
        List<OperationView> claimed = new ArrayList<>(rows.size());
        for (Object due : rows) {
            Operation row = (Operation) due;
            Leases.holdForReconcile(em, row, ACTOR, now, settings);
            claimed.add(row.view());
        }
        return claimed;
    }
}
