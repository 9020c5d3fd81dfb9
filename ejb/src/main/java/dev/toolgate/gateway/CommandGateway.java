package dev.toolgate.gateway;

import dev.toolgate.access.Caller;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.CanonicalRequest;
import dev.toolgate.canonical.Canonicalizer;
import dev.toolgate.lifecycle.Driven;
import dev.toolgate.lifecycle.Capture;
import dev.toolgate.lifecycle.CaptureDecision;
import dev.toolgate.lifecycle.CapturePolicy;
import dev.toolgate.journal.EventKind;
import dev.toolgate.journal.EventLog;
import dev.toolgate.lifecycle.FirstCapture;
import dev.toolgate.lifecycle.KeyCapture;
import dev.toolgate.lifecycle.KeyLook;
import dev.toolgate.journal.OperationRefused;
import dev.toolgate.journal.OperationView;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.notification.NoticeSettings;
import jakarta.json.JsonObject;
import dev.toolgate.lifecycle.OperationLoop;
import dev.toolgate.targets.registry.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.function.Supplier;

/** An agent's command: capture, then the operation's one loop ({@link OperationLoop}). No transaction is open here. */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class CommandGateway {

    @Inject
    NoticeSettings notices;
    @Inject
    FirstCapture firstCapture;
    @Inject
    KeyCapture keyCapture;
    @Inject
    OperationLoop loop;
    @Inject
    TargetRegistry targets;
    @Inject
    GatewayMetrics metrics;

    /**
     * An agent's command under {@code key}, traced as one tool execution whose child spans are the
     * capture, each attempt and its record, each look-up. The first statement reads the key's row and, only if there is
     * none, captures it ({@link FirstCapture}): a new operation is that statement and its outcome's, a replay of a
     * finished operation that one statement reading its row.
     */
    public GatewayAnswer submit(ToolCall call, Caller caller, String key, AgentCommand command) {
        CanonicalRequest request = Canonicalizer.canonicalize(command);
        targets.requireConfigured(request.target());
        Trace.operation(key);
        OperationAttributes operation = new OperationAttributes(caller.tenant(), key, request.operation(), request.target());
        try (Step tool = ToolExecution.start(call, operation)) {
            try {
                Capture capture;
                try (Step step = Spans.step("toolgate.capture", OperationAttributes.none())) { // the row records this span
                    KeyLook look = firstCapture.look(caller, key, request);
                    if (look instanceof KeyLook.Found found
                            && CapturePolicy.replayedAsRead(found.row().status(), found.row().requestHash(), request.fingerprint())) {
                        // a replay changes nothing: answered from the one statement's read, logged and counted, not journaled
                        step.outcome(new CaptureDecision.Replay().metricName()).attempt(found.row().attemptCount());
                        metrics.captured(new CaptureDecision.Replay().metricName());
                        EventLog.logOnly(found.row(), caller.principalId(), EventKind.REPLAYED);
                        return ToolExecution.answered(tool, AgentAnswers.of(found.row(), true, Instant.now(), notices.noticeWait(found.row().target(), found.row().operation())));
                    }
                    // any row not a replay (or another caller's, not yet seen) is decided under its lock: one capture, one span
                    capture = look instanceof KeyLook.Captured captured ? captured.capture() : keyCapture.capture(caller, key, request);
                    described(step, capture);
                }
                // the caller's own payload: capture matched its fingerprint, and it carries any withheld field
                return ToolExecution.answered(tool, proceed(capture.decision(), capture.operation(), caller.principalId(), request.payload()));
            } catch (RuntimeException e) { // a refusal, the journal away, a bug: the answer's mapping says which
                tool.threw(e);
                throw e;
            }
        }
    }

    /**
     * A replacement agent continues the recorded operation (it continues the work, it does not re-plan it): the
     * journal's payload, the journal's approval, the journal's attempt count. It accepts no parameters,
     * so nothing the new agent's model says can change what was approved. Traced in the new agent's trace,
     * with the same operation key as every earlier span of the operation.
     */
    public GatewayAnswer resume(ToolCall call, Caller caller, String key) {
        try (Step tool = ToolExecution.start(call, new OperationAttributes(caller.tenant(), key, null, null))) {
            try {
                Capture capture = capture(() -> keyCapture.resume(caller, key));
                if (capture == null) {
                    throw new OperationRefused(OperationRefused.Reason.OPERATION_NOT_FOUND, "no operation with this key");
                }
                OperationView operation = capture.operation();
                tool.about(new OperationAttributes(null, null, operation.operation(), operation.target()));
                // withheld fields were never stored: only the original request can send them (a look-up needs none)
                return ToolExecution.answered(tool, proceed(capture.decision(), operation, caller.principalId(),
                        operation.withheldFields().isEmpty() ? operation.payload() : null));
            } catch (RuntimeException e) {
                tool.threw(e);
                throw e;
            }
        }
    }

    /** The capture's own span: what it decided and the status it left the row in. */
    private static Capture capture(Supplier<Capture> capturing) {
        try (Step step = Spans.step("toolgate.capture", OperationAttributes.none())) {
            Capture capture = capturing.get();
            if (capture != null) {
                described(step, capture);
            }
            return capture;
        }
    }

    /** What the capture decided and the status it left the row in, on its span. */
    private static void described(Step step, Capture capture) {
        OperationView row = capture.operation();
        step.outcome(capture.decision().metricName()).attempt(row.attemptCount());
        step.after(capture.before() == null ? null : capture.before().dbName(), row.status().dbName(), row.targetObjectId());
    }

    private GatewayAnswer proceed(CaptureDecision decision, OperationView operation, String actor, JsonObject payload) {
        metrics.captured(decision.metricName());
        if (decision instanceof CaptureDecision.Execute || decision instanceof CaptureDecision.Reconcile) {
            Driven driven = loop.drive(decision, operation, actor, payload);
            // nothing recorded by this call (found by a look-up, or another caller's): a replay of an earlier effect
            return AgentAnswers.of(driven.operation(), !driven.byThisCall(), Instant.now(), notices.noticeWait(driven.operation().target(), driven.operation().operation()));
        }
        if (decision instanceof CaptureDecision.Mismatch) {
            return new GatewayAnswer.KeyReused(operation);
        }
        if (decision instanceof CaptureDecision.FingerprintUncheckable) {
            return new GatewayAnswer.FingerprintUncheckable(operation);
        }
        // every other decision acted on the row under its lock (or left it): the row says what to answer
        return AgentAnswers.of(operation, decision instanceof CaptureDecision.Replay, Instant.now(), notices.noticeWait(operation.target(), operation.operation()));
    }
}
