package dev.toolgate.lifecycle;

import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.RetryPolicy;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.time.Instant;

/**
 * The one recovery loop of an operation, after its capture: attempt → outcome → look-up → settle, retry or
 * escalate. The agent's call ({@code CommandGateway}, which the process driver calls for each step) and the
 * reconcile job ({@code ReconcileWriter}) both drive it. Each decision is a pure table's
 * ({@link CapturePolicy}, {@link AttemptOutcomes}, {@link LookupDecisions}); each phase commits on its own,
 * and no transaction is open here while a target is called.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class OperationLoop {

    /** What the loop does next with a row it holds. */
    enum Next { ATTEMPT, LOOK_UP, ANSWER }

    @Inject
    Dispatcher dispatcher;
    @Inject
    Reconciler reconciler;
    @Inject
    KeyCapture keyCapture;
    @Inject
    RetryPolicies policies;

    /**
     * Drives {@code operation}, which {@code decision} left leased to {@code actor}, until it is settled or
     * waits on someone else. {@code callerPayload}: the caller's full request, fingerprint-checked at capture;
     * null when no caller is present (the job, or a resume), and then only the journal's payload can be sent.
     */
    public Driven drive(CaptureDecision decision, OperationView operation, String actor, JsonObject callerPayload) {
        RetryPolicy policy = policies.of(operation.target());
        boolean canResend = callerPayload != null || operation.withheldFields().isEmpty();
        Lookup firstLookup = null;
        boolean byThisCall = false;
        Next next = next(decision);
        while (true) {
            switch (next) {
                case ATTEMPT -> {
                    Sent sent = dispatcher.send(operation, actor, callerPayload != null ? callerPayload : operation.payload(), policy);
                    operation = sent.operation();
                    byThisCall = sent.byThisCall();
                    if (!waitedOutBackOff(sent, policy)) {
                        next = Next.ANSWER;
                        break;
                    }
                    Capture again = keyCapture.nextAttempt(operation, actor); // decided again under the row lock
                    operation = again.operation();
                    byThisCall = false; // until an attempt of this drive records again
                    next = next(again.decision());
                }
                case LOOK_UP -> {
                    Reconciled reconciled = reconciler.lookUp(operation, actor, canResend, policy);
                    firstLookup = firstLookup != null ? firstLookup : reconciled.lookup();
                    operation = reconciled.operation();
                    byThisCall = false;
                    next = reconciled.retryNow() ? Next.ATTEMPT : Next.ANSWER;
                }
                case ANSWER -> {
                    return new Driven(operation, firstLookup, byThisCall);
                }
            }
        }
    }

    /** Execute leased the next attempt and Reconcile the look-up; every other decision acted on the row under its lock, or left it. */
    private Next next(CaptureDecision decision) {
        if (decision instanceof CaptureDecision.Execute) {
            return Next.ATTEMPT;
        }
        return decision instanceof CaptureDecision.Reconcile ? Next.LOOK_UP : Next.ANSWER;
    }

    /** True once a transient failure's back-off, short enough for a waiting caller, has been waited out. */
    private boolean waitedOutBackOff(Sent sent, RetryPolicy policy) {
        OperationView after = sent.operation();
        if (!sent.byThisCall() || after.status() != OperationStatus.FAILED_RETRYABLE) {
            return false;
        }
        Duration wait = Duration.between(Instant.now(), after.nextCheckAt());
        if (!policy.waitableInCall(wait)) { // the target asked for longer than an agent's call should hang
            return false;
        }
        try {
            Thread.sleep(Math.max(0, wait.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }
}
