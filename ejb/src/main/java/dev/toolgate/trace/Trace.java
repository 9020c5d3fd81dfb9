package dev.toolgate.trace;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the current thread is working on: the trace id and, once known, the operation key. Local EJB calls run on
 * the caller's thread, so the journal and adapters see what the front door or the job set. Always opened in a
 * try-with-resources: a pooled thread must not carry one call's context into the next. With tracing on, a call
 * adopts its server span's trace, so rows, events, log lines and spans name one trace.
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

    public static Trace open(String traceId, String operationKey) {
        Trace trace = new Trace(traceId != null ? traceId : TraceParent.newTraceId(), operationKey, CURRENT.get(), false);
        CURRENT.set(trace);
        return trace;
    }

    /** One incoming call on a pooled thread: whatever an earlier call left behind is dropped, never restored. */
    public static Trace start(String traceId) {
        Trace trace = new Trace(traceId != null ? traceId : TraceParent.newTraceId(), null, null, true);
        CURRENT.set(trace);
        return trace;
    }

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

    public static void operation(String key) {
        Trace trace = CURRENT.get();
        if (trace != null) {
            trace.operationKey = key;
        }
    }

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
