package dev.toolgate.journal;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.util.List;
import java.util.Optional;

/** Reads the journal: one operation with its whole story, by key. */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class Journal {

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    /** The operation {@code key} of {@code tenant}: another tenant's equal key is invisible here. */
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
        return Optional.of(new OperationRecord(operation.view(), events));
    }

    /** An operation and its events, oldest first. */
    public record OperationRecord(OperationView operation, List<EventView> events) {
    }
}
