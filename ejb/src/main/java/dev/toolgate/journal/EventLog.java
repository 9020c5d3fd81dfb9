package dev.toolgate.journal;

import jakarta.persistence.EntityManager;

import java.time.Instant;

/**
 * Appends events inside the caller's transaction, so an event exists exactly when the state
 * change it describes was committed. A plain INSERT: the id is never needed back.
 */
final class EventLog {

    private EventLog() {
    }

    static void append(EntityManager em, String key, EventKind kind, Instant at, Integer attempt,
                       OperationStatus status, String detail) {
        append(em, key, kind, at, attempt, status, null, null, null, detail);
    }

    static void append(EntityManager em, String key, EventKind kind, Instant at, Integer attempt,
                       OperationStatus status, Integer httpStatus, String errorClass, Long durationMs, String detail) {
        em.createNativeQuery("INSERT INTO operation_event (operation_key, occurred_at, kind, attempt, status,"
                        + " http_status, error_class, duration_ms, actor, detail)"
                        // EclipseLink binds a null as VARCHAR: the casts give PostgreSQL the column types
                        + " VALUES (?1, ?2, ?3, CAST(?4 AS integer), ?5, CAST(?6 AS integer), ?7, CAST(?8 AS integer), ?9, ?10)")
                .setParameter(1, key)
                .setParameter(2, Operation.at(at))
                .setParameter(3, kind.dbName())
                .setParameter(4, attempt)
                .setParameter(5, status == null ? null : status.dbName())
                .setParameter(6, httpStatus)
                .setParameter(7, errorClass)
                .setParameter(8, durationMs == null ? null : (int) Math.min(durationMs, Integer.MAX_VALUE))
                .setParameter(9, "gateway")
                .setParameter(10, detail)
                .executeUpdate();
    }
}
