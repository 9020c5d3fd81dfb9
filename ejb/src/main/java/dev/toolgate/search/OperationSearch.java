package dev.toolgate.search;

import dev.toolgate.journal.Operation;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The journal as people search it, a page at a time. Every query is one indexed read in no transaction (V10);
 * pages are keyset-paginated ({@link Cursor}), so page 500 of millions of rows is as fast as page 1.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class OperationSearch {

    public record Query(String key, String traceId, String targetObjectId, Standing standing, Instant from, Instant to) {
        public static Query standing(Standing standing) {
            return new Query(null, null, null, standing, null, null);
        }
    }

    public record Page(List<OperationView> items, Cursor next) {
    }

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    /** Newest first: what an auditor searches. */
    public Page newestFirst(String tenant, Query query, Cursor after, int limit) {
        return page(tenant, query, after, limit, false);
    }

    /** Oldest first: what waits longest comes first in a queue. */
    public Page oldestFirst(String tenant, Query query, Cursor after, int limit) {
        return page(tenant, query, after, limit, true);
    }

    private Page page(String tenant, Query query, Cursor after, int limit, boolean ascending) {
        Instant now = Instant.now();
        StringBuilder jpql = new StringBuilder("SELECT o FROM Operation o WHERE o.tenant = :tenant");
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("tenant", tenant);
        if (query.key() != null) {
            jpql.append(" AND o.key = :key");
            parameters.put("key", query.key());
        }
        if (query.traceId() != null) {
            // the trace of any call that wrote an event: one semi-join on operation_event_trace_idx (V10);
            // an OR with the row's trace_id would read every event and every row
            jpql.append(" AND o.key IN (SELECT e.operationKey FROM OperationEvent e WHERE e.tenant = :tenant AND e.traceId = :trace)");
            parameters.put("trace", query.traceId());
        }
        if (query.targetObjectId() != null) {
            jpql.append(" AND o.targetObjectId = :object");
            parameters.put("object", query.targetObjectId());
        }
        if (query.standing() != null) {
            jpql.append(condition(query.standing()));
            if (query.standing() == Standing.IN_FLIGHT || query.standing() == Standing.LEASE_LAPSED
                    || query.standing() == Standing.AWAITING_APPROVAL || query.standing() == Standing.AWAITING_CALLER) {
                parameters.put("now", Operation.at(now));
            }
        }
        if (query.from() != null) {
            jpql.append(" AND o.createdAt >= :from");
            parameters.put("from", Operation.at(query.from()));
        }
        if (query.to() != null) {
            jpql.append(" AND o.createdAt < :to");
            parameters.put("to", Operation.at(query.to()));
        }
        if (after != null) {
            jpql.append(ascending ? " AND (o.createdAt > :at OR (o.createdAt = :at AND o.key > :after))"
                    : " AND (o.createdAt < :at OR (o.createdAt = :at AND o.key < :after))");
            parameters.put("at", Operation.at(after.at()));
            parameters.put("after", after.key());
        }
        jpql.append(ascending ? " ORDER BY o.createdAt, o.key" : " ORDER BY o.createdAt DESC, o.key DESC");
        TypedQuery<Operation> typed = em.createQuery(jpql.toString(), Operation.class).setMaxResults(limit + 1);
        parameters.forEach(typed::setParameter);
        List<OperationView> rows = new ArrayList<>(typed.getResultStream().map(Operation::view).toList());
        Cursor next = null;
        if (rows.size() > limit) {
            rows.remove(limit);
            OperationView last = rows.get(limit - 1);
            next = new Cursor(last.createdAt(), last.key());
        }
        return new Page(rows, next);
    }

    private static final String STANDING_APPROVAL = "SELECT a.id FROM Approval a WHERE a.id = o.approvalId"
            + " AND a.revokedAt IS NULL AND a.expiresAt > :now";

    /** Which of {@code operations} have an approval standing now, in one read: tells awaiting caller from awaiting approval. */
    public java.util.Set<String> approvedNow(java.util.Collection<OperationView> operations) {
        List<String> ids = operations.stream().filter(op -> op.status() == OperationStatus.PENDING_APPROVAL && op.approvalId() != null)
                .map(OperationView::approvalId).toList();
        if (ids.isEmpty()) {
            return java.util.Set.of();
        }
        return java.util.Set.copyOf(em.createQuery("SELECT a.operationKey FROM Approval a WHERE a.id IN :ids"
                        + " AND a.revokedAt IS NULL AND a.expiresAt > :now", String.class)
                .setParameter("ids", ids).setParameter("now", Operation.at(Instant.now())).getResultList());
    }

    private static String condition(Standing standing) {
        return switch (standing) {
            case AWAITING_APPROVAL -> " AND o.status = 'pending_approval' AND NOT EXISTS (" + STANDING_APPROVAL + ")";
            case AWAITING_CALLER -> " AND o.status = 'pending_approval' AND EXISTS (" + STANDING_APPROVAL + ")";
            case IN_FLIGHT -> " AND o.status = 'started' AND o.leaseUntil > :now";
            case LEASE_LAPSED -> " AND o.status = 'started' AND (o.leaseUntil IS NULL OR o.leaseUntil <= :now)";
            case UNKNOWN -> " AND o.status = 'unknown' AND o.escalatedAt IS NULL";
            case ESCALATED -> " AND o.status = 'unknown' AND o.escalatedAt IS NOT NULL";
            case RETRY_WAITING -> " AND o.status = 'failed_retryable'";
            case SUCCEEDED -> " AND o.status = 'succeeded'";
            case FAILED -> " AND o.status = 'failed_final'";
        };
    }

    /** Unfinished operations of {@code tenant} by standing: the tenant's share of {@code toolgate_operations_unfinished}. */
    public Map<Standing, Long> unfinished(String tenant) {
        Map<Standing, Long> counts = new EnumMap<>(Standing.class);
        for (Standing standing : Standing.values()) {
            if (!standing.finished()) {
                counts.put(standing, 0L);
            }
        }
        for (Object row : em.createNativeQuery("SELECT CASE WHEN o.escalated_at IS NOT NULL THEN 'ESCALATED'"
                        + " WHEN o.status = 'started' AND (o.lease_until IS NULL OR o.lease_until <= now()) THEN 'LEASE_LAPSED'"
                        + " WHEN o.status = 'started' THEN 'IN_FLIGHT' WHEN o.status = 'unknown' THEN 'UNKNOWN'"
                        + " WHEN o.status = 'failed_retryable' THEN 'RETRY_WAITING' WHEN a.approval_id IS NOT NULL THEN 'AWAITING_CALLER'"
                        + " ELSE 'AWAITING_APPROVAL' END, count(*)"
                        + " FROM agent_operation_log o LEFT JOIN operation_approval a ON a.approval_id = o.approval_id"
                        + " AND a.revoked_at IS NULL AND a.expires_at > now()"
                        + " WHERE o.tenant = ?1 AND o.status IN ('started', 'unknown', 'failed_retryable', 'pending_approval') GROUP BY 1")
                .setParameter(1, tenant).getResultList()) {
            Object[] columns = (Object[]) row;
            counts.put(Standing.valueOf((String) columns[0]), ((Number) columns[1]).longValue());
        }
        return counts;
    }
}
