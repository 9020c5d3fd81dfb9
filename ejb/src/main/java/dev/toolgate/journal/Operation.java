package dev.toolgate.journal;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * One row of {@code agent_operation_log}, read through JPA where a phase locks it. Every transition of the
 * operation's lifecycle is written by SQL with its event in the lifecycle package (the capture's insert, the
 * leases, the fenced writes of outcomes and look-ups); the few writes left here are people's and the effect
 * gate's, each in one place: an approval naming itself ({@link #approvedBy}), an approval that lapsed before an
 * attempt ({@link #lapse}), a person's resolution of an escalation ({@link #resolve}), a lease renewed by its
 * holder ({@link #renewLease}).
 */
@Entity
@Table(name = "agent_operation_log")
@IdClass(OperationId.class)
public class Operation {

    @Id
    @Column(name = "tenant")
    private String tenant;
    @Id
    @Column(name = "operation_key")
    private String key;
    @Column(name = "agent_id", updatable = false)
    private String agentId;
    @Column(name = "operation_type", updatable = false)
    private String operationType;
    @Column(name = "target_system", updatable = false)
    private String targetSystem;
    @Column(name = "request_hash", updatable = false)
    private String requestHash;
    @Column(name = "payload", insertable = false, updatable = false)
    private String payload;
    @Column(name = "withheld_fields", insertable = false, updatable = false)
    private String withheldFields;
    @Column(name = "status")
    private String status;
    @Column(name = "target_object_id")
    private String targetObjectId;
    @Column(name = "response_json", insertable = false, updatable = false)
    private String responseJson;
    @Column(name = "error_code")
    private String errorCode;
    @Column(name = "attempt_count")
    private int attemptCount;
    @Column(name = "lease_until")
    private OffsetDateTime leaseUntil;
    @Column(name = "lease_epoch")
    private long leaseEpoch;
    @Column(name = "next_check_at")
    private OffsetDateTime nextCheckAt;
    @Column(name = "reconcile_count")
    private int reconcileCount;
    @Column(name = "settle_after")
    private OffsetDateTime settleAfter;
    @Column(name = "escalated_at")
    private OffsetDateTime escalatedAt;
    @Column(name = "created_at", updatable = false)
    private OffsetDateTime createdAt;
    @Column(name = "updated_at")
    private OffsetDateTime updatedAt;
    @Column(name = "completed_at")
    private OffsetDateTime completedAt;
    @Column(name = "trace_id", insertable = false, updatable = false)
    private String traceId;
    @Column(name = "span_id", insertable = false, updatable = false)
    private String spanId;
    @Column(name = "approval_required", insertable = false, updatable = false)
    private boolean approvalRequired;
    @Column(name = "approval_id")
    private String approvalId;

    protected Operation() {
    }

    public OperationStatus status() {
        return OperationStatus.fromDb(status);
    }

    /** Names the approval that now governs new attempts. */
    public void approvedBy(String approval, Instant now) {
        approvalId = approval;
        updatedAt = at(now);
    }

    /**
     * pending_approval or failed_retryable → failed_final: the approval lapsed before a new attempt,
     * so nothing is sent. Never called for a row whose last attempt may have had an effect.
     */
    public void lapse(String code, Instant now) {
        status = OperationStatus.FAILED_FINAL.dbName();
        errorCode = code;
        leaseUntil = null;
        nextCheckAt = null;
        completedAt = at(now);
        updatedAt = at(now);
    }

    /**
     * unknown (escalated) → succeeded or failed_final, on a person's word and evidence. The result
     * for replay is written by SQL (response_json is not mapped for writes).
     */
    public void resolve(OperationStatus to, String objectId, String code, Instant now) {
        status = to.dbName();
        targetObjectId = objectId;
        errorCode = code;
        leaseUntil = null;
        nextCheckAt = null;
        completedAt = at(now);
        updatedAt = at(now);
    }

    /** The same lease, holder and epoch, running a full period from {@code now}. */
    public void renewLease(Instant now, Duration lease) {
        leaseUntil = at(now.plus(lease));
        updatedAt = at(now);
    }

    public OperationView view() {
        return new OperationView(tenant, key, agentId, operationType, targetSystem, status(), requestHash, json(payload),
                withheld(withheldFields),
                targetObjectId, json(responseJson), errorCode, attemptCount, instant(leaseUntil), leaseEpoch,
                instant(nextCheckAt), reconcileCount, instant(settleAfter), instant(escalatedAt),
                instant(createdAt), instant(updatedAt), instant(completedAt), traceId, spanId, approvalRequired, approvalId);
    }

    public static OffsetDateTime at(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    /** The withheld_fields column as names: empty, or comma-separated. */
    public static List<String> withheld(String column) {
        return column == null || column.isEmpty() ? List.of() : List.of(column.split(","));
    }

    public static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }

    public static JsonObject json(String text) {
        if (text == null) {
            return null;
        }
        try (JsonReader reader = JSON.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }
}
