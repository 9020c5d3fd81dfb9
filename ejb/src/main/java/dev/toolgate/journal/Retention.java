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
 * is started, unknown, escalated or awaiting approval is still someone's business.
 */
@Stateless
public class Retention {

    static final String PURGE = "DELETE FROM agent_operation_log WHERE (tenant, operation_key) IN ("
            + " SELECT tenant, operation_key FROM agent_operation_log"
            + "  WHERE status IN ('succeeded', 'failed_final') AND completed_at < ?1"
            // a step of a process that has not finished is what keeps the process from sending it again
            + "  AND NOT EXISTS (SELECT 1 FROM process_run p WHERE p.tenant = agent_operation_log.tenant"
            + "   AND p.status NOT IN ('completed', 'failed', 'compensated')"
            + "   AND starts_with(agent_operation_log.operation_key, p.process_key || '/'))"
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
