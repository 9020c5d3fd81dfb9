package dev.toolgate.dispatch;

import dev.toolgate.lifecycle.Capture;
import dev.toolgate.lifecycle.CaptureDecision;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.lifecycle.KeyCapture;
import dev.toolgate.lifecycle.LeaseRenewals;
import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import dev.toolgate.lifecycle.OutcomeRecorder;
import dev.toolgate.lifecycle.Recorded;
import dev.toolgate.reconcile.Reconciled;
import dev.toolgate.reconcile.Reconciler;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.RetryPolicy;
import dev.toolgate.targets.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/** Calls the target with no transaction open, records each outcome in its own, retries what is provably safe. */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Dispatcher {

    @Inject
    TargetRegistry targets;
    @Inject
    OutcomeRecorder recorder;
    @Inject
    KeyCapture keyCapture;
    @Inject
    RetryPolicies policies;
    @Inject
    LeaseRenewals renewals;
    @Inject
    JournalSettings settings;
    @Inject
    Reconciler reconciler;

    /**
     * Sends the leased attempt with {@code payload} (the caller's, fingerprint-checked at capture, or the
     * journal's when nothing was withheld); after a transient failure, waits out the back-off and sends again.
     */
    public Sent send(OperationView leased, String actor, JsonObject payload) {
        RetryPolicy policy = policies.of(leased.target());
        OperationView attempt = leased;
        while (true) {
            String refusal = OutgoingCheck.refusal(attempt, payload);
            if (refusal != null) { // a bug upstream, never an agent's choice: send nothing, record nothing
                throw new IllegalStateException("refused to send " + attempt.key() + ": " + refusal);
            }
            long started = System.nanoTime();
            AttemptGate gate = new AttemptGate(attempt, renewals, settings.lease(), actor);
            Outcome outcome = attempt(attempt, payload, gate);
            if (gate.lapsed() != null) { // the approval lapsed before anything was sent: already failed for good
                return new Sent(gate.lapsed(), true);
            }
            Recorded recorded = record(attempt, outcome, Duration.ofNanos(System.nanoTime() - started), policy, actor);
            OperationView after = recorded.operation();
            if (!recorded.applied() || after.status() != OperationStatus.FAILED_RETRYABLE) {
                return new Sent(after, recorded.applied());
            }
            Duration wait = Duration.between(Instant.now(), after.nextCheckAt());
            if (!policy.waitableInCall(wait)) { // the target asked for longer than an agent's call should hang
                return new Sent(after, true);
            }
            pause(wait);
            Capture next = keyCapture.nextAttempt(after, actor);
            if (next.decision() instanceof CaptureDecision.Reconcile) { // meanwhile the row became uncertain: look it up
                Reconciled reconciled = reconciler.settle(next.operation(), actor, payload);
                return new Sent(reconciled.operation(), reconciled.sent());
            }
            if (!(next.decision() instanceof CaptureDecision.Execute)) { // another caller took it meanwhile
                return new Sent(next.operation(), false);
            }
            attempt = next.operation();
        }
    }

    /** One attempt at the target, its own span: the client span of each request it makes is its child. */
    private Outcome attempt(OperationView attempt, JsonObject payload, AttemptGate gate) {
        try (Step step = Spans.step("toolgate.attempt", OperationAttributes.none()).attempt(attempt.attemptCount())) {
            Outcome outcome = targets.execute(attempt.target(), Attempts.of(attempt, payload, gate));
            step.outcome(outcome.getClass().getSimpleName().toLowerCase(Locale.ROOT)).failed(outcome.errorCode());
            return outcome;
        }
    }

    /** The outcome's fenced write, its own span: the status it moved the row to, or that the write was fenced off. */
    private Recorded record(OperationView attempt, Outcome outcome, Duration took, RetryPolicy policy, String actor) {
        try (Step step = Spans.step("toolgate.record", OperationAttributes.none()).attempt(attempt.attemptCount())) {
            Recorded recorded = recorder.record(attempt, outcome, took, policy, actor);
            OperationView after = recorded.operation();
            step.outcome(recorded.applied() ? "applied" : "fenced")
                    .after(attempt.status().dbName(), after.status().dbName(), after.targetObjectId());
            return recorded;
        }
    }

    private static void pause(Duration wait) {
        try {
            Thread.sleep(Math.max(0, wait.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
