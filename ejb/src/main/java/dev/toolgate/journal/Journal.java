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
import java.util.TreeMap;

/** Reads the journal: one operation with its whole story, by key. */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class Journal {

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    /** The operations of {@code tenant} under {@code keys} that exist, by key: a process's steps in one read. */
    public Map<String, OperationView> several(String tenant, Collection<String> keys) {
        Map<String, OperationView> found = new HashMap<>();
        em.createQuery("SELECT o FROM Operation o WHERE o.tenant = :tenant AND o.key IN :keys", Operation.class)
                .setParameter("tenant", tenant).setParameter("keys", List.copyOf(keys))
                .getResultStream().map(Operation::view).forEach(view -> found.put(view.key(), view));
        return found;
    }

    /**
     * Operations of {@code tenant} that are not finished — unknown, started, awaiting approval, or waiting
     * for their caller to try again — oldest first: what a replacement agent takes over.
     */
    public List<OperationView> open(String tenant, int limit) {
        return em.createQuery("SELECT o FROM Operation o WHERE o.tenant = :tenant"
                        + " AND o.status IN ('unknown', 'started', 'pending_approval', 'failed_retryable') ORDER BY o.createdAt",
                        Operation.class)
                .setParameter("tenant", tenant).setMaxResults(limit)
                .getResultStream().map(Operation::view).toList();
    }

    /**
     * The backlog as operators watch it: operations per unfinished status (escalated apart), and the
     * reconcile lag — how long the most overdue look-up has been waiting, 0 when none is due.
     */
    public Backlog backlog() {
        Map<String, Long> counts = new TreeMap<>();
        for (Object row : em.createNativeQuery("SELECT CASE WHEN escalated_at IS NOT NULL THEN 'escalated' ELSE status END, count(*)"
                + " FROM agent_operation_log WHERE status IN ('started', 'unknown', 'failed_retryable', 'pending_approval')"
                + " GROUP BY 1").getResultList()) {
            Object[] columns = (Object[]) row;
            counts.put((String) columns[0], ((Number) columns[1]).longValue());
        }
        Object lag = em.createNativeQuery("SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(next_check_at)), 0) FROM agent_operation_log"
                + " WHERE status = 'unknown' AND escalated_at IS NULL AND next_check_at <= now()").getSingleResult();
        return new Backlog(counts, ((Number) lag).doubleValue());
    }

    public record Backlog(Map<String, Long> unfinished, double reconcileLagSeconds) {
    }

    /**
     * The journal's schema against the version {@code needed} (this release's): what it holds, and whether this release
     * fits it ({@link SchemaFit}) — a newer schema counts only where it declares this release compatible. Throws when
     * the database does not answer.
     */
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

    /** The schema the journal holds ({@code null}: none) and how this release fits it. */
    public record SchemaStanding(String held, SchemaFit fit) {
    }

    /** The schema version the database holds, as Flyway recorded it; throws when the database does not answer. */
    public String schemaVersion() {
        List<?> versions = em.createNativeQuery("SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL"
                + " ORDER BY installed_rank DESC LIMIT 1").getResultList();
        return versions.isEmpty() ? null : versions.get(0).toString();
    }
}
