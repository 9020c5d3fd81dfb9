package dev.toolgate.journal;

import dev.toolgate.operation.OperationView;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class Journal {

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    public Map<String, OperationView> several(String tenant, Collection<String> keys) {
        Map<String, OperationView> found = new HashMap<>();
        em.createQuery("SELECT o FROM Operation o WHERE o.tenant = :tenant AND o.key IN :keys", Operation.class)
                .setParameter("tenant", tenant).setParameter("keys", List.copyOf(keys))
                .getResultStream().map(Operation::view).forEach(view -> found.put(view.key(), view));
        return found;
    }

    /** A newer schema fits only where it declares this release compatible ({@link SchemaFit}); throws when the database does not answer. */
    public SchemaStanding schemaStanding(int needed) {
        String held = schemaVersion();
        Integer version = held == null ? null : Integer.valueOf(held.split("\\.")[0]);
        Integer oldest = null;
        if (version != null && version > needed) { // a newer release migrated it: journal_compatibility exists (V12 on)
            List<?> declared = em.createNativeQuery("SELECT oldest_compatible FROM journal_compatibility WHERE schema_version = ?1")
                    .setParameter(1, version).getResultList();
            oldest = declared.isEmpty() ? null : ((Number) declared.get(0)).intValue();
        }
        return new SchemaStanding(held, SchemaFit.of(needed, version, oldest));
    }

    public record SchemaStanding(String held, SchemaFit fit) {
    }

    /** The schema version the database holds, as Flyway recorded it; throws when the database does not answer. */
    public String schemaVersion() {
        List<?> versions = em.createNativeQuery("SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL"
                + " ORDER BY installed_rank DESC LIMIT 1").getResultList();
        return versions.isEmpty() ? null : versions.get(0).toString();
    }
}
