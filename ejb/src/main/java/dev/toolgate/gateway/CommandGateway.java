package dev.toolgate.gateway;

import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.CanonicalRequest;
import dev.toolgate.canonical.Canonicalizer;
import dev.toolgate.journal.Capture;
import dev.toolgate.journal.CaptureDecision;
import dev.toolgate.journal.KeyCapture;
import dev.toolgate.journal.OperationView;
import dev.toolgate.journal.OutcomeRecorder;
import dev.toolgate.journal.Settlement;
import dev.toolgate.target.Dispatch;
import dev.toolgate.target.Lookup;
import dev.toolgate.target.Outcome;
import dev.toolgate.target.Targets;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;

/** Capture → call the target → record. No database transaction is open here: each phase commits alone. */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class CommandGateway {

    /** What an agent is told to wait when no better figure is known. */
    static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

    @Inject
    KeyCapture keyCapture;
    @Inject
    OutcomeRecorder recorder;
    @Inject
    Targets targets;

    public GatewayAnswer submit(String key, AgentCommand command) {
        CanonicalRequest request = Canonicalizer.canonicalize(command);
        targets.requireConfigured(request.target());
        Capture capture = keyCapture.capture(key, request);
        return proceed(capture.decision(), capture.operation());
    }

    private GatewayAnswer proceed(CaptureDecision decision, OperationView operation) {
        if (decision instanceof CaptureDecision.Execute) {
            return dispatch(operation);
        }
        if (decision instanceof CaptureDecision.Reconcile) {
            return reconcile(operation);
        }
        if (decision instanceof CaptureDecision.Replay) {
            return new GatewayAnswer.Done(operation, true);
        }
        if (decision instanceof CaptureDecision.InProgress p) {
            return new GatewayAnswer.InProgress(operation, until(p.leaseUntil()));
        }
        if (decision instanceof CaptureDecision.Unsettled u) {
            return new GatewayAnswer.OutcomeUnknown(operation, until(u.retryAt()));
        }
        if (decision instanceof CaptureDecision.Mismatch) {
            return new GatewayAnswer.KeyReused(operation);
        }
        return new GatewayAnswer.AwaitingApproval(operation);
    }

    private GatewayAnswer dispatch(OperationView attempt) {
        long started = System.nanoTime();
        Outcome outcome = targets.execute(attempt.target(), dispatchOf(attempt));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        OperationView recorded = recorder.record(attempt, outcome, took);
        Duration retryAfter = outcome instanceof Outcome.Transient t && t.retryAfter() != null
                ? t.retryAfter() : DEFAULT_RETRY_AFTER;
        return answer(recorded, false, retryAfter);
    }

    /** Looks the effect up by our key first; sends again only when the target has no trace of it. */
    private GatewayAnswer reconcile(OperationView unknown) {
        Lookup lookup = targets.lookup(unknown.target(), dispatchOf(unknown));
        Settlement settlement = recorder.reconciled(unknown, lookup);
        if (settlement.retryNow()) {
            return dispatch(settlement.operation());
        }
        // found now: the effect came from an earlier call, so this answer is a replay of it
        return answer(settlement.operation(), true, DEFAULT_RETRY_AFTER);
    }

    private GatewayAnswer answer(OperationView operation, boolean replayed, Duration retryAfter) {
        return switch (operation.status()) {
            case SUCCEEDED, FAILED_FINAL -> new GatewayAnswer.Done(operation, replayed);
            case FAILED_RETRYABLE -> new GatewayAnswer.TryLater(operation, retryAfter);
            case UNKNOWN -> new GatewayAnswer.OutcomeUnknown(operation,
                    operation.nextCheckAt() == null ? DEFAULT_RETRY_AFTER : until(operation.nextCheckAt()));
            // our write was fenced off: another caller owns the operation now
            case STARTED -> new GatewayAnswer.InProgress(operation, until(operation.leaseUntil()));
            case PENDING_APPROVAL -> new GatewayAnswer.AwaitingApproval(operation);
        };
    }

    private static Dispatch dispatchOf(OperationView operation) {
        return new Dispatch(operation.key(), operation.operation(), operation.attemptCount(), operation.payload(),
                operation.createdAt());
    }

    private static Duration until(Instant moment) {
        Duration left = moment == null ? DEFAULT_RETRY_AFTER : Duration.between(Instant.now(), moment);
        return left.compareTo(DEFAULT_RETRY_AFTER) < 0 ? DEFAULT_RETRY_AFTER : left;
    }
}
