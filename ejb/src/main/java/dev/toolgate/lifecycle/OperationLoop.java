package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.FirstCapture.KeyLook;
import dev.toolgate.admission.WorkPermits;
import dev.toolgate.lifecycle.decisions.AttemptOutcomes;
import dev.toolgate.lifecycle.decisions.LookupDecisions;
import dev.toolgate.lifecycle.decisions.CaptureDecision;
import dev.toolgate.lifecycle.decisions.CapturePolicy;

import dev.toolgate.access.Caller;
import dev.toolgate.canonical.CanonicalRequest;
import dev.toolgate.journal.EventLog;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.operation.EventKind;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.RetryPolicy;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The one loop of an operation: capture → attempt → outcome → look-up → settle, retry or escalate. The agent's call
 * ({@code CommandGateway}) enters at the capture, a notification at the look-up its claim leased, and the reconcile
 * job ({@code ReconcileWriter}) takes the same steps a chunk at a time ({@link #lookUp} … {@link #afterAttempt}).
 * Decisions are pure tables ({@link CapturePolicy}, {@link AttemptOutcomes}, {@link LookupDecisions}); each phase
 * commits on its own; no transaction is open here while a target is called.
 *
 * <p>The job's and a notification's entries are {@code NOT_SUPPORTED}: they suspend the caller's transaction (the
 * job's chunk). The agent's entries ({@link #submit}, {@link #captureRecorded}) have no interceptor, so none is paid
 * per call: they are called with no transaction, and {@link FirstCapture#look} and the target registry refuse one.
 */
@ApplicationScoped
public class OperationLoop {

    enum Next { ATTEMPT, LOOK_UP, ANSWER }

    @Inject
    FirstCapture firstCapture;
    @Inject
    KeyCapture keyCapture;
    @Inject
    Dispatcher dispatcher;
    @Inject
    Reconciler reconciler;
    @Inject
    RetryPolicies policies;
    @Inject
    GatewayMetrics metrics;
    @Inject
    FinishedOperations finished;

    /**
     * An agent's request under {@code key}, from its capture to where the loop leaves it: a new operation costs the
     * capture's statement and its outcome's, a replay one read, or none while {@link FinishedOperations} holds the row.
     */
    public Phase submit(Caller caller, String key, CanonicalRequest request) {
        Phase done = drive(capture(caller, key, request), caller.principalId(), request.payload());
        finished.remember(done.operation(), Instant.now()); // its agent's retry, whose answer was lost, is the likeliest replay
        return done;
    }

    /** A replacement agent's capture of the recorded operation, decided under its lock; null when there is none. */
    public Phase captureRecorded(Caller caller, String key) {
        try (Step step = Spans.step("toolgate.capture", OperationAttributes.none())) {
            Phase captured = keyCapture.resume(caller, key);
            return captured == null ? null : counted(captured.described(step), captured);
        }
    }

    /** A notification's entry: drives {@code operation}, which {@code decision} left leased to {@code actor}. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public Phase drive(CaptureDecision decision, OperationView operation, String actor, JsonObject callerPayload) {
        return drive(Phase.captured(decision, operation.status(), operation), actor, callerPayload);
    }

    /**
     * Drives the captured row until it is settled or waits on someone else. {@code callerPayload}: the caller's request,
     * fingerprint-checked at capture and carrying any withheld field; null with no caller (the job, a resume), and then
     * only the journal's payload can be sent.
     */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public Phase drive(Phase captured, String actor, JsonObject callerPayload) {
        return drive(captured, next(captured.decision()), actor, callerPayload, null);
    }

    /** The job's first turn on a leased row: the target's answer by our key, recorded later ({@link #recordLookUps}). */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public Lookup lookUp(OperationView leased) {
        return reconciler.ask(leased);
    }

    /** {@link #lookUp} for rows of one target's operation asked together, answers in their order. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public List<Lookup> lookUpAll(List<OperationView> leased, List<Step> items) {
        return reconciler.askAll(leased, items);
    }

    /** The job's second turn: a chunk's answers recorded in one transaction, in the items' order. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public List<Phase> recordLookUps(List<OperationView> leased, List<Lookup> lookups, String actor) {
        return reconciler.recordAll(leased, lookups, actor);
    }

    /** The job's third turn, after a look-up found no effect and leased an attempt: sent from the journal's payload. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public Dispatcher.Sent send(Phase leased, String actor) {
        OperationView attempt = leased.operation();
        return dispatcher.sendOnly(attempt, actor, attempt.payload());
    }

    /** The job's fourth turn: a chunk's outcomes recorded in one transaction, in the items' order. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public List<Phase> recordOutcomes(List<Dispatcher.Sent> sent, String actor) {
        return dispatcher.recordAll(sent, actor);
    }

    /** The job's last turn: a short back-off is waited out and retried, as in an agent's call; else the drive ends. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public Phase afterAttempt(Phase attempted, Lookup firstLookup, String actor) {
        Phase again = retriedAfterBackOff(attempted, policies.of(attempted.operation().target()), actor);
        return again == null ? attempted.withLookup(firstLookup) : drive(again, next(again.decision()), actor, null, firstLookup);
    }

    private Phase drive(Phase from, Next first, String actor, JsonObject callerPayload, Lookup firstLookup) {
        RetryPolicy policy = policies.of(from.operation().target());
        boolean canResend = callerPayload != null || from.operation().withheldFields().isEmpty();
        Phase phase = from;
        Next next = first;
        while (true) {
            switch (next) {
                case ATTEMPT -> {
                    OperationView attempt = phase.operation();
                    phase = dispatcher.send(attempt, actor, callerPayload != null ? callerPayload : attempt.payload(), policy);
                    Phase again = retriedAfterBackOff(phase, policy, actor);
                    if (again == null) {
                        next = Next.ANSWER;
                        break;
                    }
                    phase = again;
                    next = next(phase.decision());
                }
                case LOOK_UP -> {
                    phase = reconciler.lookUp(phase.operation(), actor, canResend, policy);
                    firstLookup = firstLookup != null ? firstLookup : phase.lookup();
                    next = phase.byThisCall() ? Next.ATTEMPT : Next.ANSWER; // found no effect: the next attempt is leased to us
                }
                case ANSWER -> {
                    return phase.withLookup(firstLookup);
                }
            }
        }
    }

    /**
     * The first look captures a new key; a finished row with this payload is answered as read
     * ({@link CapturePolicy#replayedAsRead}); any other row, or one not yet visible, under its lock ({@link KeyCapture}).
     */
    private Phase capture(Caller caller, String key, CanonicalRequest request) {
        try (Step step = Spans.step("toolgate.capture", OperationAttributes.none())) {
            Instant now = Instant.now();
            OperationView held = finished.replay(caller.tenant(), key, request.fingerprint(), now);
            if (held != null) {
                return replayed(step, held, caller);
            }
            KeyLook look = firstCapture.look(caller, key, request);
            if (look instanceof KeyLook.Found found
                    && CapturePolicy.replayedAsRead(found.row().status(), found.row().requestHash(), request.fingerprint())) {
                finished.remember(found.row(), now);
                return replayed(step, found.row(), caller);
            }
            Phase captured = look instanceof KeyLook.Captured first ? first.phase() : keyCapture.capture(caller, key, request);
            return counted(captured.described(step), captured);
        }
    }

    /** A replay changes nothing: answered from the row as read, logged and counted, not journaled. */
    private Phase replayed(Step step, OperationView row, Caller caller) {
        EventLog.logOnly(row, caller.principalId(), EventKind.REPLAYED);
        return counted(step, new Phase(new CaptureDecision.Replay(), row.status(), row, false, null));
    }

    private Phase counted(Step step, Phase captured) {
        step.outcome(captured.decision().metricName()).attempt(captured.operation().attemptCount());
        metrics.captured(captured.decision().metricName());
        return captured;
    }

    /** Execute leased the next attempt and Reconcile the look-up; every other decision acted on the row under its lock, or left it. */
    private static Next next(CaptureDecision decision) {
        if (decision instanceof CaptureDecision.Execute) {
            return Next.ATTEMPT;
        }
        return decision instanceof CaptureDecision.Reconcile ? Next.LOOK_UP : Next.ANSWER;
    }

    /**
     * After a transient failure whose back-off is short enough for a waiting caller, waited out: the next attempt,
     * decided again under the row lock (a lapse it writes is this drive's outcome, a row someone else moved is not).
     * Null when there is no such wait.
     */
    private Phase retriedAfterBackOff(Phase sent, RetryPolicy policy, String actor) {
        return waitedOutBackOff(sent, policy) ? keyCapture.nextAttempt(sent.operation(), actor) : null;
    }

    private static boolean waitedOutBackOff(Phase sent, RetryPolicy policy) {
        OperationView after = sent.operation();
        if (!sent.byThisCall() || after.status() != OperationStatus.FAILED_RETRYABLE) {
            return false;
        }
        Duration wait = Duration.between(Instant.now(), after.nextCheckAt());
        if (!policy.waitableInCall(wait)) { // the target asked for longer than an agent's call should hang
            return false;
        }
        WorkPermits.awayFor(() -> { // a call that waits does no work: its permit is another's meanwhile
            try {
                Thread.sleep(Math.max(0, wait.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        });
        return true;
    }
}
