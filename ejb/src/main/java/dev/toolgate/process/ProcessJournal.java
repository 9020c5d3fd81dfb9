package dev.toolgate.process;

import dev.toolgate.approval.Approval;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.ThisRelease;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Trace;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The process rows and their events, each write its own short transaction, none open while a step runs. Writes
 * name the claim's epoch, so an advancer whose claim lapsed (a slow target, a paused JVM) writes nothing over the next.
 */
@Stateless
public class ProcessJournal {

    private static final String COLUMNS = "tenant, process_key, process_type, status, agent_id, request_hash, payload::text,"
            + " waiting_on, detail, next_check_at, claim_epoch, created_at, updated_at, completed_at, trace_id, span_id, declaration::text";

    /** The row and its {@code submitted} event in one statement, the event only if the insert won. */
    private static final String INSERT = "WITH submitted AS (INSERT INTO process_run (tenant, process_key, process_type, request_hash,"
            + " payload, status, agent_id, detail, next_check_at, created_at, updated_at, trace_id, span_id, declaration, captured_release)"
            + " VALUES (?1, ?2, ?3, ?4, CAST(?5 AS jsonb), 'running', ?6, ?7, ?8, ?9, ?9, ?10, ?12, CAST(?11 AS jsonb), ?13)"
            + " ON CONFLICT (tenant, process_key) DO NOTHING RETURNING tenant, process_key, created_at, agent_id, detail)"
            + " INSERT INTO process_event (tenant, process_key, occurred_at, kind, status, actor, detail)"
            + " SELECT tenant, process_key, created_at, 'submitted', 'running', agent_id, detail FROM submitted RETURNING id";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Captured capture(String tenant, String key, ProcessType type, String agent, JsonObject payload, String fingerprint, Instant now,
                            Instant firstCheck) {
        boolean created = !em.createNativeQuery(INSERT)
                .setParameter(1, tenant).setParameter(2, key).setParameter(3, type.name()).setParameter(4, fingerprint)
                .setParameter(5, CanonicalJson.write(payload)).setParameter(6, agent)
                .setParameter(7, "submitted by " + agent).setParameter(8, Operation.at(firstCheck))
                .setParameter(9, Operation.at(now)).setParameter(10, Trace.traceId())
                .setParameter(11, CanonicalJson.write(type.declaration()))
                .setParameter(12, Spans.currentSpanId()) // the registering call's toolgate.process span: the job's advances go under it
                .setParameter(13, ThisRelease.name())
                .getResultList().isEmpty();
        return new Captured(find(tenant, key).orElseThrow(), created);
    }

    public record Captured(ProcessView process, boolean created) {
    }

    /** Claims the process until {@code now + claim} unless another holds a live claim: the claim's epoch, or empty. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public OptionalLong claim(String tenant, String key, Instant now, Duration claim) {
        List<?> epoch = em.createNativeQuery("UPDATE process_run SET claimed_until = ?1, claim_epoch = claim_epoch + 1"
                        + " WHERE tenant = ?2 AND process_key = ?3 AND (claimed_until IS NULL OR claimed_until <= ?4) RETURNING claim_epoch")
                .setParameter(1, Operation.at(now.plus(claim))).setParameter(2, tenant).setParameter(3, key)
                .setParameter(4, Operation.at(now)).getResultList();
        return epoch.isEmpty() ? OptionalLong.empty() : OptionalLong.of(((Number) epoch.get(0)).longValue());
    }

    /**
     * Writes where the process stands under the claim {@code epoch}; {@code claimUntil} null ends the claim.
     * {@code completed_at}, set on entering a finished status, is what retention counts from. False: the claim was lost.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean record(ProcessView before, long epoch, ProcessStatus status, String waitingOn, String detail, Instant nextCheck,
                          String actor, Instant now, Instant claimUntil) {
        boolean finished = status.finished();
        int updated = em.createNativeQuery("UPDATE process_run SET status = ?1, waiting_on = ?2, detail = ?3, next_check_at = CAST(?4 AS timestamptz),"
                        + " updated_at = ?5, completed_at = CASE WHEN CAST(?6 AS boolean) THEN COALESCE(completed_at, ?5) ELSE NULL END,"
                        + " claimed_until = CAST(?7 AS timestamptz)"
                        + " WHERE tenant = ?8 AND process_key = ?9 AND claim_epoch = ?10")
                .setParameter(1, status.dbName()).setParameter(2, waitingOn).setParameter(3, detail)
                .setParameter(4, Operation.at(nextCheck)).setParameter(5, Operation.at(now)).setParameter(6, finished)
                .setParameter(7, Operation.at(claimUntil)).setParameter(8, before.tenant()).setParameter(9, before.key()).setParameter(10, epoch)
                .executeUpdate();
        if (updated == 1 && (status != before.status() || !detail.equals(before.detail()))) {
            event(before.tenant(), before.key(), now, status == before.status() ? "progressed" : status.dbName(), status, actor, detail);
        }
        return updated == 1;
    }

    /** Ends the claim {@code epoch} without changing anything else (the process was found finished under it). */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void release(ProcessView process, long epoch) {
        em.createNativeQuery("UPDATE process_run SET claimed_until = NULL WHERE tenant = ?1 AND process_key = ?2 AND claim_epoch = ?3")
                .setParameter(1, process.tenant()).setParameter(2, process.key()).setParameter(3, epoch).executeUpdate();
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void note(ProcessView process, String kind, String actor, String detail, Instant now) {
        event(process.tenant(), process.key(), now, kind, process.status(), actor, detail);
    }

    private void event(String tenant, String key, Instant at, String kind, ProcessStatus status, String actor, String detail) {
        em.createNativeQuery("INSERT INTO process_event (tenant, process_key, occurred_at, kind, status, actor, detail)"
                        + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
                .setParameter(1, tenant).setParameter(2, key).setParameter(3, Operation.at(at)).setParameter(4, kind)
                .setParameter(5, status.dbName()).setParameter(6, actor).setParameter(7, detail).executeUpdate();
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Optional<ProcessView> find(String tenant, String key) {
        List<?> rows = em.createNativeQuery("SELECT " + COLUMNS + " FROM process_run WHERE tenant = ?1 AND process_key = ?2")
                .setParameter(1, tenant).setParameter(2, key).getResultList();
        return rows.isEmpty() ? Optional.empty() : Optional.of(view((Object[]) rows.get(0)));
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<ProcessEventView> events(String tenant, String key) {
        List<ProcessEventView> events = new ArrayList<>();
        for (Object row : em.createNativeQuery("SELECT occurred_at, kind, status, actor, detail FROM process_event"
                + " WHERE tenant = ?1 AND process_key = ?2 ORDER BY id").setParameter(1, tenant).setParameter(2, key).getResultList()) {
            Object[] c = (Object[]) row;
            events.add(new ProcessEventView(instant(c[0]), (String) c[1], ProcessStatus.fromDb((String) c[2]), (String) c[3], (String) c[4]));
        }
        return events;
    }

    /** The approvals {@code ids} name, as they stand at {@code now}: the row's approval id alone does not say that. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Map<String, ApprovalView> approvals(Collection<String> ids, Instant now) {
        Map<String, ApprovalView> found = new HashMap<>();
        for (String id : ids) {
            Approval approval = em.find(Approval.class, id);
            if (approval != null) {
                found.put(id, approval.view(now));
            }
        }
        return found;
    }

    /** Newest first; paged by the last row's creation time and key, so processes created in one instant are never skipped. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<ProcessView> list(String tenant, ProcessStatus status, Instant before, String beforeKey, int limit) {
        List<ProcessView> views = new ArrayList<>();
        for (Object row : em.createNativeQuery("SELECT " + COLUMNS + " FROM process_run WHERE tenant = ?1"
                        + " AND (CAST(?2 AS text) IS NULL OR status = ?2) AND (CAST(?3 AS timestamptz) IS NULL"
                        + "      OR (created_at, process_key) < (CAST(?3 AS timestamptz), CAST(?4 AS text)))"
                        + " ORDER BY created_at DESC, process_key DESC LIMIT ?5")
                .setParameter(1, tenant).setParameter(2, status == null ? null : status.dbName())
                .setParameter(3, Operation.at(before)).setParameter(4, beforeKey == null ? "" : beforeKey).setParameter(5, limit)
                .getResultList()) {
            views.add(view((Object[]) row));
        }
        return views;
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Map<ProcessStatus, Long> unfinished() {
        Map<ProcessStatus, Long> counts = new EnumMap<>(ProcessStatus.class);
        for (Object row : em.createNativeQuery("SELECT status, count(*) FROM process_run"
                + " WHERE status IN ('running', 'awaiting_approval', 'compensating', 'needs_attention') GROUP BY status").getResultList()) {
            Object[] c = (Object[]) row;
            counts.put(ProcessStatus.fromDb((String) c[0]), ((Number) c[1]).longValue());
        }
        return counts;
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<ProcessView> due(Instant now, int limit) {
        List<ProcessView> views = new ArrayList<>();
        for (Object row : em.createNativeQuery("SELECT " + COLUMNS + " FROM process_run WHERE next_check_at <= ?1"
                        + " AND (claimed_until IS NULL OR claimed_until <= ?1) ORDER BY next_check_at LIMIT ?2")
                .setParameter(1, Operation.at(now)).setParameter(2, limit).getResultList()) {
            views.add(view((Object[]) row));
        }
        return views;
    }

    private static ProcessView view(Object[] c) {
        return new ProcessView((String) c[0], (String) c[1], (String) c[2], ProcessStatus.fromDb((String) c[3]), (String) c[4],
                (String) c[5], (JsonObject) IJsonReader.read((String) c[6]), (String) c[7], (String) c[8], instant(c[9]),
                ((Number) c[10]).longValue(), instant(c[11]), instant(c[12]), instant(c[13]), (String) c[14], (String) c[15],
                (JsonObject) IJsonReader.read((String) c[16]));
    }

    private static Instant instant(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Timestamp timestamp) {
            return timestamp.toInstant();
        }
        if (value instanceof OffsetDateTime offset) {
            return offset.toInstant();
        }
        return (Instant) value;
    }
}
