package dev.toolgate.search;

import dev.toolgate.approval.Approval;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.operation.EventKind;
import dev.toolgate.operation.EventView;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationEvent;
import dev.toolgate.journal.OperationId;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Lookup;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One operation's whole story (row, events, approval), and a tenant's open operations a replacement agent takes
 * over: a read model, so the journal needs to know nothing of approvals.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class OperationRecords {

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    /** Another tenant's equal key is invisible here. */
    public Optional<OperationRecord> find(String tenant, String key) {
        Operation operation = em.find(Operation.class, new OperationId(tenant, key));
        if (operation == null) {
            return Optional.empty();
        }
        List<EventView> events = em.createQuery(
                        "SELECT e FROM OperationEvent e WHERE e.tenant = :tenant AND e.operationKey = :key ORDER BY e.id",
                        OperationEvent.class)
                .setParameter("tenant", tenant)
                .setParameter("key", key)
                .getResultStream().map(OperationEvent::view).toList();
        OperationView view = operation.view();
        Approval approval = view.approvalId() == null ? null : em.find(Approval.class, view.approvalId());
        return Optional.of(new OperationRecord(view, events, approval == null ? null : approval.view(Instant.now())));
    }

    /** Not finished (unknown, started, awaiting approval or its caller), oldest first: what a replacement agent takes over. */
    public List<OperationView> open(String tenant, int limit) {
        return em.createQuery("SELECT o FROM Operation o WHERE o.tenant = :tenant"
                        + " AND o.status IN ('unknown', 'started', 'pending_approval', 'failed_retryable') ORDER BY o.createdAt",
                        Operation.class)
                .setParameter("tenant", tenant).setMaxResults(limit)
                .getResultStream().map(Operation::view).toList();
    }

    public record OperationRecord(OperationView operation, List<EventView> events, ApprovalView approval) {

        /** The kinds of event a look-up by key writes: its lease, its answer, its giving up, a lapsed attempt before it. */
        private static final Set<String> LOOK_UPS = Set.of(EventKind.RECONCILE_STARTED.dbName(), EventKind.RECONCILED.dbName(),
                EventKind.ESCALATED.dbName(), EventKind.LEASE_EXPIRED.dbName());

        public List<EventView> lookUps() {
            return events.stream().filter(e -> LOOK_UPS.contains(e.kind())).toList();
        }

        /** The object ids every duplicate a look-up found named, first seen first: what a person resolving it chooses from. */
        public List<String> duplicates() {
            Set<String> ids = new LinkedHashSet<>();
            lookUps().forEach(e -> ids.addAll(Lookup.Ambiguous.objectIdsIn(e.detail())));
            return List.copyOf(ids);
        }
    }
}
