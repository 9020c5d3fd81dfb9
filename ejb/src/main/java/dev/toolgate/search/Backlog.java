package dev.toolgate.search;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.util.Map;
import java.util.TreeMap;

/** The backlog operators watch, across tenants; {@link OperationSearch#unfinished} of each tenant adds up to it. */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class Backlog {

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    /** The figures now; the lag is how long the most overdue look-up has been waiting, 0 when none is due. */
    public Figures now() {
        Map<String, Long> counts = new TreeMap<>();
        for (Object row : em.createNativeQuery("SELECT CASE WHEN escalated_at IS NOT NULL THEN 'escalated' ELSE status END, count(*)"
                + " FROM agent_operation_log WHERE status IN ('started', 'unknown', 'failed_retryable', 'pending_approval')"
                + " GROUP BY 1").getResultList()) {
            Object[] columns = (Object[]) row;
            counts.put((String) columns[0], ((Number) columns[1]).longValue());
        }
        Object lag = em.createNativeQuery("SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(next_check_at)), 0) FROM agent_operation_log"
                + " WHERE status = 'unknown' AND escalated_at IS NULL AND next_check_at <= now()").getSingleResult();
        return new Figures(counts, ((Number) lag).doubleValue());
    }

    public record Figures(Map<String, Long> unfinished, double reconcileLagSeconds) {
    }
}
