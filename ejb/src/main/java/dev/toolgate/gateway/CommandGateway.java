package dev.toolgate.gateway;

import dev.toolgate.access.Caller;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.CanonicalRequest;
import dev.toolgate.canonical.Canonicalizer;
import dev.toolgate.dispatch.Dispatcher;
import dev.toolgate.dispatch.Sent;
import dev.toolgate.journal.Capture;
import dev.toolgate.journal.CaptureDecision;
import dev.toolgate.journal.KeyCapture;
import dev.toolgate.journal.OperationRefused;
import dev.toolgate.journal.OperationView;
import dev.toolgate.metrics.GatewayMetrics;
import jakarta.json.JsonObject;
import dev.toolgate.reconcile.Reconciled;
import dev.toolgate.reconcile.Reconciler;
import dev.toolgate.targets.TargetRegistry;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;

/** An agent's command: capture → (look up →) call the target → record. No transaction is open here. */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class CommandGateway {

    /** What an agent is told to wait when no better figure is known. */
    static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);
    /** An escalated operation waits for a person: no point asking again within minutes. */
    static final Duration ESCALATED_RETRY_AFTER = Duration.ofMinutes(5);

    @Inject
    KeyCapture keyCapture;
    @Inject
    Dispatcher dispatcher;
    @Inject
    Reconciler reconciler;
    @Inject
    TargetRegistry targets;
    @Inject
    GatewayMetrics metrics;

    public GatewayAnswer submit(Caller caller, String key, AgentCommand command) {
        CanonicalRequest request = Canonicalizer.canonicalize(command);
        targets.requireConfigured(request.target());
        Capture capture = keyCapture.capture(caller, key, request);
        // the caller's own payload: capture matched its fingerprint, and it carries any withheld field
        return proceed(capture.decision(), capture.operation(), caller.principalId(), request.payload());
    }

    /**
     * A replacement agent continues the recorded operation (seed 003, "continue the work"): the
     * journal's payload, the journal's approval, the journal's attempt count. It accepts no parameters,
     * so nothing the new agent's model says can change what was approved.
     */
    public GatewayAnswer resume(Caller caller, String key) {
        Capture capture = keyCapture.resume(caller, key);
        if (capture == null) {
            throw new OperationRefused(OperationRefused.Reason.OPERATION_NOT_FOUND, "no operation with this key");
        }
        OperationView operation = capture.operation();
        // withheld fields were never stored: only the original request can send them (a look-up needs none)
        return proceed(capture.decision(), operation, caller.principalId(), operation.withheldFields().isEmpty() ? operation.payload() : null);
    }

    private GatewayAnswer proceed(CaptureDecision decision, OperationView operation, String actor, JsonObject payload) {
        metrics.captured(decisionName(decision));
        if (decision instanceof CaptureDecision.Execute) {
            Sent sent = dispatcher.send(operation, actor, payload);
            return answer(sent.operation(), !sent.byThisCall());
        }
        if (decision instanceof CaptureDecision.Reconcile) {
            Reconciled reconciled = reconciler.settle(operation, actor, payload);
            // found now: an earlier call produced the effect, so this answer is a replay of it
            return answer(reconciled.operation(), !reconciled.sent());
        }
        if (decision instanceof CaptureDecision.Replay) {
            return new GatewayAnswer.Done(operation, true);
        }
        if (decision instanceof CaptureDecision.InProgress p) {
            return new GatewayAnswer.InProgress(operation, until(p.leaseUntil()));
        }
        if (decision instanceof CaptureDecision.RetryLater later) {
            return new GatewayAnswer.TryLater(operation, until(later.retryAt()));
        }
        if (decision instanceof CaptureDecision.Unsettled u) {
            return new GatewayAnswer.OutcomeUnknown(operation, until(u.retryAt()));
        }
        if (decision instanceof CaptureDecision.Escalated) {
            return new GatewayAnswer.OutcomeUnknown(operation, ESCALATED_RETRY_AFTER);
        }
        if (decision instanceof CaptureDecision.Mismatch) {
            return new GatewayAnswer.KeyReused(operation);
        }
        if (decision instanceof CaptureDecision.ApprovalLapsed) { // now failed_final: nothing was sent
            return new GatewayAnswer.Done(operation, false);
        }
        return new GatewayAnswer.AwaitingApproval(operation);
    }

    /** {@code Execute} → {@code execute}, {@code InProgress} → {@code in_progress}; a mismatch is a reused key. */
    static String decisionName(CaptureDecision decision) {
        if (decision instanceof CaptureDecision.Mismatch) {
            return "key_reused";
        }
        return decision.getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }

    private static GatewayAnswer answer(OperationView operation, boolean replayed) {
        return switch (operation.status()) {
            case SUCCEEDED, FAILED_FINAL -> new GatewayAnswer.Done(operation, replayed);
            case FAILED_RETRYABLE -> new GatewayAnswer.TryLater(operation, until(operation.nextCheckAt()));
            case UNKNOWN -> new GatewayAnswer.OutcomeUnknown(operation, operation.escalatedAt() != null
                    ? ESCALATED_RETRY_AFTER : until(operation.nextCheckAt()));
            // our write was fenced off: another caller owns the operation now
            case STARTED -> new GatewayAnswer.InProgress(operation, until(operation.leaseUntil()));
            case PENDING_APPROVAL -> new GatewayAnswer.AwaitingApproval(operation);
        };
    }

    private static Duration until(Instant moment) {
        Duration left = moment == null ? DEFAULT_RETRY_AFTER : Duration.between(Instant.now(), moment);
        return left.compareTo(DEFAULT_RETRY_AFTER) < 0 ? DEFAULT_RETRY_AFTER : left;
    }
}
