package dev.toolgate.journal;

import dev.toolgate.trace.Trace;
import jakarta.persistence.EntityManager;

import java.time.Instant;

/**
 * Appends events inside the caller's transaction, so an event exists exactly when the state
 * change it describes was committed. A plain INSERT: the id is never needed back.
 */
public final class EventLog {

    // EclipseLink binds a null as VARCHAR: the casts give PostgreSQL the column types
    public static final String APPEND = "INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, attempt,"
            + " status, http_status, error_class, duration_ms, actor, detail, trace_id)"
            + " VALUES (?1, ?2, ?3, ?4, CAST(?5 AS integer), ?6, CAST(?7 AS integer), ?8, CAST(?9 AS integer), ?10, ?11, ?12)";

    private EventLog() {
    }

    static void append(EntityManager em, OperationView op, String actor, EventKind kind, Instant at, Integer attempt,
                       OperationStatus status, String detail) {
        append(em, op, actor, kind, at, attempt, status, null, null, null, detail);
    }

    static void append(EntityManager em, OperationView op, String actor, EventKind kind, Instant at, Integer attempt,
                       OperationStatus status, Integer httpStatus, String errorClass, Long durationMs, String detail) {
        em.createNativeQuery(APPEND)
                .setParameter(1, op.tenant())
                .setParameter(2, op.key())
                .setParameter(3, Operation.at(at))
                .setParameter(4, kind.dbName())
                .setParameter(5, attempt)
                .setParameter(6, status == null ? null : status.dbName())
                .setParameter(7, httpStatus)
                .setParameter(8, errorClass)
                .setParameter(9, durationMs == null ? null : (int) Math.min(durationMs, Integer.MAX_VALUE))
                .setParameter(10, actor)
                .setParameter(11, detail)
                .setParameter(12, Trace.traceId()) // the call (or job run) that caused this step
                .executeUpdate();
    }
}
