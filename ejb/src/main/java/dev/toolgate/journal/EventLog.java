package dev.toolgate.journal;

import dev.toolgate.operation.EventKind;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.trace.StructuredLog;
import dev.toolgate.trace.Trace;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Appends events inside the caller's transaction, so an event exists exactly when its state change was committed.
 * Each event is also one structured log line, written only once its transaction committed, so the log never tells
 * of a step the journal does not hold.
 */
public final class EventLog {

    private static final Logger LOG = Logger.getLogger("dev.toolgate.operations");
    private static volatile TransactionSynchronizationRegistry registry;

    // EclipseLink binds a null as VARCHAR: the casts give PostgreSQL the column types
    public static final String APPEND = "INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, attempt,"
            + " status, http_status, error_class, duration_ms, actor, detail, trace_id)"
            + " VALUES (?1, ?2, ?3, ?4, CAST(?5 AS integer), ?6, CAST(?7 AS integer), ?8, CAST(?9 AS integer), ?10, ?11, ?12)";

    private EventLog() {
    }

    public static void append(EntityManager em, OperationView op, String actor, EventKind kind, Instant at, Integer attempt,
                       OperationStatus status, String detail) {
        append(em, op, actor, kind, at, attempt, status, null, null, null, detail);
    }

    public static void append(EntityManager em, OperationView op, String actor, EventKind kind, Instant at, Integer attempt,
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
        logOnCommit(op, actor, kind, attempt, status, httpStatus, errorClass, durationMs, detail);
    }

    public static void logOnCommit(OperationView op, String actor, EventKind kind, Integer attempt, OperationStatus status, String detail) {
        logOnCommit(op, actor, kind, attempt, status, null, null, null, detail);
    }

    /**
     * The log line of an event, once its container transaction has committed; at once when none is active, its statement
     * having autocommitted (an agent's outcome).
     */
    public static void logOnCommit(OperationView op, String actor, EventKind kind, Integer attempt, OperationStatus status,
                            Integer httpStatus, String errorClass, Long durationMs, String detail) {
        Level level = level(kind);
        if (LOG.isLoggable(level)) { // the fields and the commit's callback only for a line that is written
            logOnCommit(level, fields(op, actor, kind, attempt, status, httpStatus, errorClass, durationMs, detail));
        }
    }

    /**
     * The log line of an event whose autocommitted statement has committed already (the first look's capture): as
     * {@link #logOnCommit} writes it outside a transaction, without asking the container whether one is open, so the
     * first look runs in tests without one.
     */
    public static void logCommitted(OperationView op, String actor, EventKind kind, Integer attempt, OperationStatus status, String detail) {
        Level level = level(kind);
        if (LOG.isLoggable(level)) {
            StructuredLog.log(LOG, level, "operation " + kind.dbName(), fields(op, actor, kind, attempt, status, null, null, null, detail));
        }
    }

    /** A warning for what a person should see (an escalation, a refused outcome). */
    private static Level level(EventKind kind) {
        return kind == EventKind.ESCALATED || kind == EventKind.OUTCOME_REFUSED ? Level.WARNING : Level.INFO;
    }

    /** A replay of a finished operation changes nothing: a log line and a metric, not a row and a durable commit. */
    public static void logOnly(OperationView op, String actor, EventKind kind) {
        if (LOG.isLoggable(Level.INFO)) {
            StructuredLog.log(LOG, Level.INFO, "operation " + kind.dbName(),
                    fields(op, actor, kind, op.attemptCount(), op.status(), null, null, null, null));
        }
    }

    private static Map<String, String> fields(OperationView op, String actor, EventKind kind, Integer attempt, OperationStatus status,
                                              Integer httpStatus, String errorClass, Long durationMs, String detail) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("operation_key", op.key());
        fields.put("tenant", op.tenant());
        fields.put("trace_id", Trace.traceId());
        fields.put("event", kind.dbName());
        fields.put("operation", op.operation());
        fields.put("target", op.target());
        fields.put("attempt", Objects.toString(attempt, null));
        fields.put("status", status == null ? null : status.dbName());
        fields.put("http_status", Objects.toString(httpStatus, null));
        fields.put("error_class", errorClass);
        fields.put("duration_ms", Objects.toString(durationMs, null));
        fields.put("actor", actor);
        fields.put("detail", detail);
        fields.values().removeIf(Objects::isNull);
        return fields;
    }

    /** {@code work} once the caller's container transaction has committed; never when it rolls back. */
    public static void onCommit(Runnable work) {
        transactions().registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    work.run();
                }
            }
        });
    }

    private static void logOnCommit(Level level, Map<String, String> fields) {
        Runnable line = () -> StructuredLog.log(LOG, level, "operation " + fields.get("event"), fields);
        if (transactions().getTransactionStatus() == Status.STATUS_NO_TRANSACTION) {
            line.run();
        } else {
            onCommit(line);
        }
    }

    private static TransactionSynchronizationRegistry transactions() {
        TransactionSynchronizationRegistry known = registry;
        if (known == null) {
            try {
                known = InitialContext.doLookup("java:comp/TransactionSynchronizationRegistry");
            } catch (NamingException e) {
                throw new IllegalStateException("no TransactionSynchronizationRegistry: events are appended only in container transactions", e);
            }
            registry = known;
        }
        return known;
    }
}
