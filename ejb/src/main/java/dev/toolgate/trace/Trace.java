package dev.toolgate.trace;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the current thread is working on: the trace id of the call (or of the operation, for the
 * reconcile job) and the operation key once known. Local EJB calls run on the caller's thread, so the
 * journal and the target adapters see what the front door or the job set. Always opened in a
 * try-with-resources: a pooled thread must not carry one call's context into the next.
 *
 * <p>With tracing on, an incoming call adopts the trace its server span is recorded in, the first time its trace id
 * is asked for while that span is current: the journal row, the events, the log lines and the spans name one trace.
 */
public final class Trace implements AutoCloseable {

    private static final ThreadLocal<Trace> CURRENT = new ThreadLocal<>();

    private String traceId;
    private String operationKey;
    private final Trace previous;
    /** An incoming call's, until it adopts its recorded span's trace; never the job's, which names the operation's. */
    private boolean followsSpan;

    private Trace(String traceId, String operationKey, Trace previous, boolean followsSpan) {
        this.traceId = traceId;
        this.operationKey = operationKey;
        this.previous = previous;
        this.followsSpan = followsSpan;
    }

    /** Starts working within {@code traceId} (a new one when null) on {@code operationKey} (null: not known yet). */
    public static Trace open(String traceId, String operationKey) {
        Trace trace = new Trace(traceId != null ? traceId : TraceParent.newTraceId(), operationKey, CURRENT.get(), false);
        CURRENT.set(trace);
        return trace;
    }

    /**
     * Starts the context of one incoming call on a pooled thread: whatever an earlier call may have
     * left behind is dropped, never restored.
     */
    public static Trace start(String traceId) {
        Trace trace = new Trace(traceId != null ? traceId : TraceParent.newTraceId(), null, null, true);
        CURRENT.set(trace);
        return trace;
    }

    /** The current trace id, or null outside any. */
    public static String traceId() {
        Trace trace = CURRENT.get();
        return trace == null ? null : trace.id();
    }

    private String id() {
        if (followsSpan) {
            String recorded = Spans.currentTraceId();
            if (recorded != null) {
                traceId = recorded;
                followsSpan = false;
            }
        }
        return traceId;
    }

    /** Names the operation the current call turned out to be about. */
    public static void operation(String key) {
        Trace trace = CURRENT.get();
        if (trace != null) {
            trace.operationKey = key;
        }
    }

    /**
     * The logging context of the current thread — {@code operation_key} (when known) and
     * {@code trace_id} — as fields for {@link StructuredLog}; empty outside any call.
     */
    public static Map<String, String> logFields() {
        Trace trace = CURRENT.get();
        Map<String, String> fields = new LinkedHashMap<>();
        if (trace != null) {
            if (trace.operationKey != null) {
                fields.put("operation_key", trace.operationKey);
            }
            fields.put("trace_id", trace.id());
        }
        return fields;
    }

    @Override
    public void close() {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }
}
