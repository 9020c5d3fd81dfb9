package dev.toolgate.trace;

import dev.toolgate.canonical.CardNumbers;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where spans come from: the server's OpenTelemetry, handed over at start-up by {@link TelemetryStartup}; until then,
 * and wherever tracing is off, nothing is recorded. Static, because the target clients and the journal's writers are
 * not all container objects.
 */
public final class Spans {

    /** The longest caller's id put on a span: an id is a handle, not a document. */
    public static final int MAX_ID = 128;

    public static final String SCOPE = "dev.toolgate";

    private static volatile Tracer tracer = OpenTelemetry.noop().getTracer(SCOPE);
    /** Whether {@link #tracer} records anything: when not, every step is {@link Step#NONE} and costs nothing. */
    private static volatile boolean recording;

    private Spans() {
    }

    private static volatile boolean exporting;

    /**
     * Uses {@code telemetry} from now on. It records only when it exports (an exporter wrapped in ours) and makes real
     * spans (a probe span, never ended, gets a valid context): WildFly hands a disabled SDK over as one without an
     * exporter, Payara as the API's no-op.
     */
    public static void use(OpenTelemetry telemetry) {
        Tracer next = telemetry.getTracer(SCOPE, Spans.class.getPackage().getImplementationVersion());
        tracer = next;
        recording = exporting && next.spanBuilder("toolgate.probe").setNoParent().startSpan().getSpanContext().isValid();
    }

    /** The server's SDK configured an exporter and so took ours ({@link SpanExportCustomizer}); called before {@link #use}. */
    static void exporting(boolean configured) {
        exporting = configured;
    }

    public static boolean recording() {
        return recording;
    }

    /**
     * A step of the current operation, a child of the current span, made current until it is closed:
     * {@code try (Step step = Spans.step("toolgate.capture", attributes)) {…}}.
     */
    public static Step step(String name, OperationAttributes attributes) {
        if (!recording) {
            return Step.NONE;
        }
        return new Step(tracer.spanBuilder(name).setSpanKind(SpanKind.INTERNAL).startSpan(), attributes, Context.current());
    }

    /** A request to a target: a client span, the child of the current step. */
    public static Step client(String name, OperationAttributes attributes) {
        if (!recording) {
            return Step.NONE;
        }
        return new Step(tracer.spanBuilder(name).setSpanKind(SpanKind.CLIENT).startSpan(), attributes, Context.current());
    }

    /** A call that reached us over a transport the server does not instrument (MCP's servlet): a server span. */
    public static Step server(String name, Context parent, OperationAttributes attributes) {
        if (!recording) {
            return Step.NONE;
        }
        return new Step(tracer.spanBuilder(name).setParent(parent).setSpanKind(SpanKind.SERVER).startSpan(), attributes, parent);
    }

    /**
     * Work no caller waits on (a reconcile run): a trace of its own, with a link to each trace it continues
     * the work of ({@link #linkTo}).
     */
    public static Step root(String name, OperationAttributes attributes) {
        if (!recording) {
            return Step.NONE;
        }
        return new Step(tracer.spanBuilder(name).setNoParent().setSpanKind(SpanKind.INTERNAL).startSpan(), attributes, Context.root());
    }

    /**
     * Work no caller waits on that goes on with something a call recorded (the reconcile job's advance of a process):
     * a child of the recorded span {@code spanId} in trace {@code traceId}, so it and the {@code traceparent} its
     * requests carry are in the trace the journal names. With no span recorded (tracing off then) its parent is a fresh
     * span id in that trace ({@link TraceParent#newSpanId}); with no trace, a trace of its own.
     */
    public static Step continuing(String name, String traceId, String spanId, OperationAttributes attributes) {
        if (!recording) {
            return Step.NONE;
        }
        SpanContext recorded = traceId == null ? SpanContext.getInvalid()
                : linkTo(traceId, spanId != null ? spanId : TraceParent.newSpanId());
        Context parent = recorded.isValid() ? Context.root().with(Span.wrap(recorded)) : Context.root();
        return new Step(tracer.spanBuilder(name).setParent(parent).setSpanKind(SpanKind.INTERNAL).startSpan(), attributes, parent);
    }

    /**
     * A child of {@code parent} (the reconcile run, on a worker thread where it is not current), linked to
     * the span that captured the operation — a link, not a parent: the agent's call ended long ago.
     */
    public static Step linked(String name, Context parent, String traceId, String spanId, OperationAttributes attributes) {
        if (!recording) {
            return Step.NONE;
        }
        var builder = tracer.spanBuilder(name).setParent(parent).setSpanKind(SpanKind.INTERNAL);
        SpanContext origin = linkTo(traceId, spanId);
        if (origin.isValid()) {
            builder.addLink(origin);
        }
        return new Step(builder.startSpan(), attributes, parent);
    }

    /**
     * The caller's span named by a W3C {@code traceparent} header, as the parent of a server span: the root
     * context (a new trace) when there is none or it is malformed.
     */
    public static Context remoteParent(String traceparent) {
        if (traceparent == null) {
            return Context.root();
        }
        // read as TraceParent reads it (which the journal's trace id comes from): case aside
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent.trim().toLowerCase(Locale.ROOT), HEADER);
    }

    private static final TextMapGetter<String> HEADER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String traceparent) {
            return List.of(TraceParent.HEADER);
        }

        @Override
        public String get(String traceparent, String name) {
            return TraceParent.HEADER.equals(name) ? traceparent : null;
        }
    };

    /**
     * {@code text} if it may go on a span as an identifier that came from a caller (an MCP method, a
     * JSON-RPC id): at most {@code max} characters of {@code [A-Za-z0-9._:/-]} and no card number; else null.
     */
    public static String identifier(String text, int max) {
        return text != null && text.length() <= max && IDENTIFIER.matcher(text).matches() && !CardNumbers.contains(text) ? text : null;
    }

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9._:/-]+");

    /** The span context a link points at: the recorded ids, or an invalid context when either is missing. */
    static SpanContext linkTo(String traceId, String spanId) {
        if (traceId == null || spanId == null) {
            return SpanContext.getInvalid();
        }
        return SpanContext.createFromRemoteParent(traceId, spanId, TraceFlags.getSampled(), TraceState.getDefault());
    }

    /**
     * Names the operation on the call's server span when a front door hands the call over; not when the current span
     * is a step of ours that names an operation already (a process's, sending its steps through the same door).
     */
    public static void annotateServer(OperationAttributes operation) {
        OperationAttributes enclosing = Context.current().get(Step.OPERATION);
        if (enclosing == null || enclosing.key() == null) {
            operation.applyTo(Span.current());
        }
    }

    /**
     * The id of the current span when it is being recorded, else null: what a journal row keeps. With tracing off the
     * current "span" may be the caller's, from its {@code traceparent}: not ours to keep.
     */
    public static String currentSpanId() {
        Span span = Span.current();
        return recording && span.isRecording() ? span.getSpanContext().getSpanId() : null;
    }

    /**
     * The trace id of the current span when it is being recorded and exported, else null (a server's own span
     * from an SDK that exports nothing names a trace nobody will see).
     */
    public static String currentTraceId() {
        Span span = Span.current();
        return recording && span.isRecording() ? span.getSpanContext().getTraceId() : null;
    }
}
