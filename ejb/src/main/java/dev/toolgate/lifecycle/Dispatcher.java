package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.OutgoingCheck;

import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.lifecycle.decisions.Transition;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.RetryPolicy;
import dev.toolgate.targets.registry.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * One attempt of the {@link OperationLoop}: calls the target with no transaction open, then records the outcome by one
 * autocommitted statement (what follows a refused one in a transaction of its own, {@link OutcomeRecorder#refused}). A
 * plain bean, for the reason the loop gives; {@code TargetRegistry.execute} refuses to call a target inside a transaction.
 */
@ApplicationScoped
public class Dispatcher {

    @Inject
    TargetRegistry targets;
    @Inject
    OutcomeRecorder recorder;
    @Inject
    LeaseRenewals renewals;
    @Inject
    JournalSettings settings;
    @Inject
    GatewayMetrics metrics;
    @Inject
    JournalConnections journal;

    /** {@code payload}: the caller's (fingerprint-checked at capture) or the journal's when nothing was withheld. */
    public Phase send(OperationView attempt, String actor, JsonObject payload, RetryPolicy policy) {
        Sent sent = sendOnly(attempt, actor, payload);
        if (sent.lapsed() != null) { // the approval lapsed before anything was sent: already failed for good
            return Phase.attempted(attempt, sent.lapsed(), true);
        }
        return record(attempt, sent.outcome(), sent.took(), policy, actor);
    }

    /** One attempt's request, not yet recorded; {@code lapsed}: the row, failed for good if its approval lapsed first. */
    public record Sent(OperationView attempt, Outcome outcome, Duration took, OperationView lapsed) {
    }

    /** The attempt's request, with no transaction open and nothing recorded: the reconcile job records a chunk's together. */
    public Sent sendOnly(OperationView attempt, String actor, JsonObject payload) {
        String refusal = OutgoingCheck.refusal(attempt, payload);
        if (refusal != null) { // a bug upstream, never an agent's choice: send nothing, record nothing
            throw new IllegalStateException("refused to send " + attempt.key() + ": " + refusal);
        }
        long started = System.nanoTime();
        AttemptGate gate = new AttemptGate(attempt, renewals, settings.lease(), actor);
        Outcome outcome = attempt(attempt, payload, gate);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        if (gate.lapsed() == null) { // counted where the call is made, whatever becomes of its record
            metrics.targetCall(attempt.target(), outcome.errorClass(), took.toMillis());
        }
        return new Sent(attempt, outcome, took, gate.lapsed());
    }

    /** A chunk's outcomes recorded in one transaction ({@link OutcomeRecorder#recordAll}), under one span, in their order. */
    public List<Phase> recordAll(List<Sent> sent, String actor) {
        try (Step step = Spans.step("toolgate.record_outcomes", OperationAttributes.none())) {
            step.set("toolgate.items", sent.size());
            return recorder.recordAll(sent, actor);
        }
    }

    private Outcome attempt(OperationView attempt, JsonObject payload, AttemptGate gate) {
        try (Step step = Spans.step("toolgate.attempt", OperationAttributes.none()).attempt(attempt.attemptCount())) {
            Outcome outcome = targets.execute(attempt.target(), Attempts.of(attempt, payload, gate));
            step.outcome(outcome.getClass().getSimpleName().toLowerCase(Locale.ROOT)).failed(outcome.errorCode());
            return outcome;
        }
    }

    private Phase record(OperationView attempt, Outcome outcome, Duration took, RetryPolicy policy, String actor) {
        try (Step step = Spans.step("toolgate.record", OperationAttributes.none()).attempt(attempt.attemptCount())) {
            Instant now = Instant.now();
            Transition to = OutcomeRecorder.transition(outcome, attempt, policy, now);
            // one statement with its event, autocommitted: none is open here (the target's guard has just seen none)
            Phase recorded = journal.autocommitted("the journal's record of an outcome failed",
                    connection -> OutcomeRecorder.settle(connection, attempt, outcome, to, took, now, settings.settleWindow(), actor,
                            metrics, Runnable::run))
                    .orElseGet(() -> recorder.refused(attempt, outcome, to, now, actor));
            recorded.described(step.outcome(recorded.byThisCall() ? "applied" : "fenced"));
            return recorded;
        }
    }
}
