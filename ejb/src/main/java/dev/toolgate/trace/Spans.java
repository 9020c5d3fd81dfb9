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
 * Where spans come from: the server's OpenTelemetry, handed over by {@link TelemetryStartup}; until then, and
 * wherever tracing is off, nothing is recorded. Static, because target clients and journal writers are not all
 * container objects.
 */
public final class Spans {

    /** The longest caller's id put on a span: an id is a handle, not a document. */
    public static final int MAX_ID = 128;

    public static final String SCOPE = "dev.toolgate";

    private static volatile Tracer tracer = OpenTelemetry.noop().getTracer(SCOPE);
    private static volatile boolean recording;

    private Spans() {
    }

    private static volatile boolean exporting;

    /**
     * Records only when {@code telemetry} exports and makes real spans: WildFly hands a disabled SDK over as one
     * without an exporter, Payara as the API's no-op.
     */
    public static void use(OpenTelemetry telemetry) {
        Tracer next = telemetry.getTracer(SCOPE, Spans.class.getPackage().getImplementationVersion());
        tracer = next;
        recording = exporting && next.spanBuilder("toolgate.probe").setNoParent().startSpan().getSpanContext().isValid();
    }

    static void exporting(boolean configured) {
        exporting = configured;
    }

    public static boolean recording() {
        return recording;
    }

    /** A step of the current operation, a child of the current span, made current until closed. */
    public static Step step(String name, OperationAttributes attributes) {
        if (!recording) {
            return Step.NONE;
        }
        return new Step(tracer.spanBuilder(name).setSpanKind(SpanKind.INTERNAL).startSpan(), attributes, Context.current());
    }

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

    /** Work no caller waits on (a reconcile run): a trace of its own, linked to the traces it continues. */
    public static Step root(String name, OperationAttributes attributes) {
        if (!recording) {
            return Step.NONE;
        }
        return new Step(tracer.spanBuilder(name).setNoParent().setSpanKind(SpanKind.INTERNAL).startSpan(), attributes, Context.root());
    }

    /**
     * Work that continues something a call recorded: a child of the recorded span, so its requests' {@code traceparent}
     * is in the trace the journal names; with no span recorded, a fresh span id in that trace.
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

    /** A child of {@code parent}, linked (not parented) to the span that captured the operation: that call ended long ago. */
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
     * Work done once for several operations (a look-up of many keys in one request): a child of the current span,
     * linked to each operation's own span, as a batch consumer's span links the messages it handles.
     */
    public static Step batch(String name, List<Step> items, OperationAttributes attributes) {
        if (!recording) {
            return Step.NONE;
        }
        var builder = tracer.spanBuilder(name).setSpanKind(SpanKind.INTERNAL);
        for (Step item : items) {
            if (item.span().getSpanContext().isValid()) {
                builder.addLink(item.span().getSpanContext());
            }
        }
        return new Step(builder.startSpan(), attributes, Context.current());
    }

    /** The parent named by a W3C {@code traceparent}; the root context when absent or malformed. */
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

    /** {@code text} if it may go on a span as a caller's id: ≤ {@code max} of {@code [A-Za-z0-9._:/-]}, no card number. */
    public static String identifier(String text, int max) {
        return text != null && text.length() <= max && IDENTIFIER.matcher(text).matches() && !CardNumbers.contains(text) ? text : null;
    }

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9._:/-]+");

    static SpanContext linkTo(String traceId, String spanId) {
        if (traceId == null || spanId == null) {
            return SpanContext.getInvalid();
        }
        return SpanContext.createFromRemoteParent(traceId, spanId, TraceFlags.getSampled(), TraceState.getDefault());
    }

    /** Names the operation on the server span, unless the current span is our own step (a process sending its steps). */
    public static void annotateServer(OperationAttributes operation) {
        OperationAttributes enclosing = Context.current().get(Step.OPERATION);
        if (enclosing == null || enclosing.key() == null) {
            operation.applyTo(Span.current());
        }
    }

    /** The current span's id when we record it, else null: with tracing off it may be the caller's, not ours to keep. */
    public static String currentSpanId() {
        Span span = Span.current();
        return recording && span.isRecording() ? span.getSpanContext().getSpanId() : null;
    }

    public static String currentTraceId() {
        Span span = Span.current();
        return recording && span.isRecording() ? span.getSpanContext().getTraceId() : null;
    }
}
