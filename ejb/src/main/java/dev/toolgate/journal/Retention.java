package dev.toolgate.journal;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;

/**
 * Forgets finished operations after the retention period (once a record is gone, an old
 * retry is a new request). Only succeeded and failed_final rows are ever deleted: an operation that
 * is started, unknown, escalated or awaiting approval is still someone's business. The process purge
 * ({@code process.ProcessRetention}) deletes its stages by the same rule, {@link #PURGEABLE}.
 */
@Stateless
public class Retention {

    /**
     * The key of the process an operation would be a stage of, from its own key, or NULL: {@code <process key>/<step>}
     * is a step's, {@code <process key>/<step>/compensation} its compensation's ({@code process.ProcessType}), with
     * {@code <step>} a step name as {@code process.ProcessDeclarations} allows one — {@code [a-z][a-z0-9_]{0,31}},
     * never {@code compensation} (ProcessRetentionTest holds the two rules together). Exact: {@code p/q/invoice} is
     * a stage of {@code p/q}, never of {@code p}. A regular expression on the key, never a LIKE pattern built from a
     * key, whose {@code _} and {@code %} would be wildcards. No {@code ?} in it: the statements' parameters are numbered.
     */
    public static final String PROCESS_OF_STAGE = "(CASE"
            + " WHEN agent_operation_log.operation_key ~ '/compensation/compensation$' THEN NULL"
            + " WHEN agent_operation_log.operation_key ~ '/compensation$'"
            + "  THEN substring(agent_operation_log.operation_key FROM '^(.+)/[a-z][a-z0-9_]{0,31}/compensation$')"
            + " ELSE substring(agent_operation_log.operation_key FROM '^(.+)/[a-z][a-z0-9_]{0,31}$') END)";

    /**
     * The one rule of both purges, on a row of {@code agent_operation_log}: finished (succeeded or failed_final)
     * before the cutoff {@code ?1}, and no stage of a process that has not finished — its record is what keeps the
     * process from sending it again.
     */
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

    /** Deletes up to {@code limit} expired operations with their events (finished processes: {@code process.ProcessRetention}); returns how many. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int purge(int limit) {
        return em.createNativeQuery(PURGE)
                .setParameter(1, Operation.at(Instant.now().minus(settings.retention())))
                .setParameter(2, limit)
                .executeUpdate();
    }
}
