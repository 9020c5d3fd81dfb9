package dev.toolgate.trace;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;

import java.net.URI;

/**
 * One span, current until {@link #close()}: opened in a try-with-resources, so a pooled thread never carries it into
 * the next call. A change of journal status is also a span event, so a trace shows the transitions in order.
 */
public final class Step implements AutoCloseable {

    private static final AttributeKey<String> FROM = AttributeKey.stringKey("toolgate.status.from");
    private static final AttributeKey<String> TO = AttributeKey.stringKey("toolgate.status.to");
    private static final AttributeKey<String> HTTP_METHOD = AttributeKey.stringKey("http.request.method");
    private static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    private static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    private static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");

    /** The operation the current step is about: its children, down to the target's client span, carry it too. */
    static final ContextKey<OperationAttributes> OPERATION = ContextKey.named("toolgate.operation");

    /** What every step is while tracing is off: it records nothing, makes nothing current, closes as nothing. */
    static final Step NONE = new Step();

    private final Span span;
    private Context context;
    private Scope scope;

    private Step() {
        this.span = Span.getInvalid();
        this.context = Context.root();
        this.scope = null;
    }

    Step(Span span, OperationAttributes attributes, Context parent) {
        this.span = span;
        OperationAttributes effective = attributes.over(parent.get(OPERATION));
        effective.applyTo(span);
        this.context = parent.with(span).with(OPERATION, effective);
        this.scope = context.makeCurrent();
    }

    /** Called while this step is the innermost one: its own children have not begun or have ended. */
    public Step about(OperationAttributes operation) {
        if (this == NONE) {
            return this;
        }
        OperationAttributes effective = operation.over(context.get(OPERATION));
        effective.applyTo(span);
        context = context.with(OPERATION, effective);
        if (scope != null) { // a detached step is made current only where it is entered
            scope.close();
            scope = context.makeCurrent();
        }
        return this;
    }

    /**
     * No longer current on this thread, though still open: a step that outlives one thread's work (a reconcile item,
     * worked in turns on pooled threads), made current again by {@link #enter()} for each turn, ended by {@link #close()}.
     */
    public Step detach() {
        if (this != NONE && scope != null) {
            scope.close();
            scope = null;
        }
        return this;
    }

    /** This detached step current on this thread until the returned scope closes. */
    public Scope enter() {
        return this == NONE ? Scope.noop() : context.makeCurrent();
    }

    public Step attempt(int attempt) {
        span.setAttribute(OperationAttributes.ATTEMPT, attempt);
        return this;
    }

    /** The journal as this step left it: its status (an event when it changed from {@code before}), the target's object. */
    public Step after(String before, String status, String targetObjectId) {
        OperationAttributes.put(span, OperationAttributes.STATUS, status);
        OperationAttributes.put(span, OperationAttributes.TARGET_OBJECT_ID, targetObjectId);
        if (status != null && !status.equals(before)) {
            span.addEvent("toolgate.status_changed", before == null ? Attributes.of(TO, status) : Attributes.of(FROM, before, TO, status));
        }
        return this;
    }

    public Step outcome(String outcome) {
        OperationAttributes.put(span, OperationAttributes.OUTCOME, outcome);
        return this;
    }

    /** The step ended in {@code errorClass} (a connection lost, a 5xx, a refusal): error.type and an error status. */
    public Step failed(String errorClass) {
        if (errorClass != null) {
            span.setAttribute(OperationAttributes.ERROR_TYPE, errorClass);
            span.setStatus(StatusCode.ERROR);
        }
        return this;
    }

    public Step set(String name, String value) {
        if (value != null) {
            span.setAttribute(name, value);
        }
        return this;
    }

    public Step set(String name, long value) {
        span.setAttribute(name, value);
        return this;
    }

    /** A failure nobody's input explains: its class only, never its message (which may quote input). */
    public Step threw(Throwable e) {
        span.setAttribute(OperationAttributes.ERROR_TYPE, e.getClass().getName());
        span.setStatus(StatusCode.ERROR);
        return this;
    }

    /** Method, host and port as OpenTelemetry's HTTP conventions name them, no path. */
    public Step request(String method, URI uri) {
        span.updateName(method);
        span.setAttribute(HTTP_METHOD, method);
        OperationAttributes.put(span, SERVER_ADDRESS, uri.getHost());
        int port = uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        span.setAttribute(SERVER_PORT, port);
        return this;
    }

    /** The target answered with {@code status}: from 400 on, a failed call whose error class is the status. */
    public Step answered(int status) {
        span.setAttribute(HTTP_STATUS, status);
        outcome("answered");
        return status >= 400 ? failed(Integer.toString(status)) : this;
    }

    /** The W3C {@code traceparent} naming this span, for the request it describes; null when it is not recorded. */
    public String traceparent() {
        SpanContext sc = span.getSpanContext();
        if (!span.isRecording()) { // tracing off: the context may be the caller's own, which is not this request's
            return null;
        }
        return "00-" + sc.getTraceId() + "-" + sc.getSpanId() + "-" + sc.getTraceFlags().asHex();
    }

    public Context context() {
        return this == NONE ? Context.current() : context;
    }

    public Span span() {
        return span;
    }

    @Override
    public void close() {
        if (this != NONE) {
            if (scope != null) {
                scope.close();
            }
            span.end();
        }
    }
}
