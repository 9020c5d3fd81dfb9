package dev.toolgate.journal;

import dev.toolgate.operation.EventView;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;

/** One row of the append-only {@code operation_event} table; written by {@link EventLog}, read here. */
@Entity
@Table(name = "operation_event")
public class OperationEvent {

    @Id
    private Long id;
    private String tenant;
    @Column(name = "operation_key")
    private String operationKey;
    @Column(name = "occurred_at")
    private OffsetDateTime occurredAt;
    private String kind;
    private Integer attempt;
    private String status;
    @Column(name = "http_status")
    private Integer httpStatus;
    @Column(name = "error_class")
    private String errorClass;
    @Column(name = "duration_ms")
    private Integer durationMs;
    private String actor;
    private String detail;
    @Column(name = "trace_id")
    private String traceId;

    protected OperationEvent() {
    }

    public EventView view() {
        return new EventView(id, occurredAt.toInstant(), kind, attempt, status, httpStatus, errorClass, durationMs,
                actor, detail, traceId);
    }
}
