package dev.toolgate.journal;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.operation.OperationView;
import dev.toolgate.operation.OperationStatus;

import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import java.io.StringReader;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * One row of {@code agent_operation_log}, read through JPA where a phase locks or lists rows. It writes nothing: every
 * write is one statement with its event ({@code lifecycle.OperationWrites}); a phase detaches it before writing by SQL.
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
