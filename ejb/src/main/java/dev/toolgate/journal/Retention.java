package dev.toolgate.journal;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;

/**
 * Forgets finished operations after the retention period (then an old retry is a new request). Only succeeded
 * and failed_final rows are deleted; the process purge ({@code process.ProcessRetention}) uses the same
 * {@link #PURGEABLE}.
 */
@Stateless
public class Retention {

    /**
     * The process key an operation would be a stage of, or NULL: {@code <process>/<step>} or
     * {@code <process>/<step>/compensation}, step names as {@code process.ProcessDeclarations} allows them. A regular
     * expression, never a LIKE built from a key, whose {@code _} and {@code %} would be wildcards; no {@code ?} in it,
     * the statements' parameters being numbered.
     */
    public static final String PROCESS_OF_STAGE = "(CASE"
            + " WHEN agent_operation_log.operation_key ~ '/compensation/compensation$' THEN NULL"
            + " WHEN agent_operation_log.operation_key ~ '/compensation$'"
            + "  THEN substring(agent_operation_log.operation_key FROM '^(.+)/[a-z][a-z0-9_]{0,31}/compensation$')"
            + " ELSE substring(agent_operation_log.operation_key FROM '^(.+)/[a-z][a-z0-9_]{0,31}$') END)";

    /** Finished before {@code ?1}, and no stage of an unfinished process: its record keeps the process from sending it again. */
    public static final String PURGEABLE = "agent_operation_log.status IN ('succeeded', 'failed_final')"
            + " AND agent_operation_log.completed_at < ?1"
            + " AND NOT EXISTS (SELECT 1 FROM process_run p WHERE p.tenant = agent_operation_log.tenant"
            + "  AND p.process_key = " + PROCESS_OF_STAGE
            + "  AND p.status NOT IN ('completed', 'failed', 'compensated'))";

    static final String PURGE = "DELETE FROM agent_operation_log WHERE (tenant, operation_key) IN ("
            + " SELECT tenant, operation_key FROM agent_operation_log WHERE " + PURGEABLE
            + "  ORDER BY completed_at LIMIT ?2 FOR UPDATE SKIP LOCKED)";


    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

    /** Deletes up to {@code limit} expired operations with their events; how many. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int purge(int limit) {
        return em.createNativeQuery(PURGE)
                .setParameter(1, Operation.at(Instant.now().minus(settings.retention())))
                .setParameter(2, limit)
                .executeUpdate();
    }
}
