package dev.toolgate.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.lifecycle.Capture;
import dev.toolgate.lifecycle.CaptureDecision;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.lifecycle.KeyCapture;
import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import dev.toolgate.lifecycle.OutcomeRecorder;
import dev.toolgate.lifecycle.Recorded;
import dev.toolgate.reconcile.Reconciled;
import dev.toolgate.reconcile.Reconciler;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.RetryPolicy;
import dev.toolgate.targets.TargetRegistry;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The dispatch loop's decisions between attempts, with the journal and the target played by
 * stand-ins (the journal's SQL has its own PostgreSQL tests): what it does when the row changed
 * while it waited out a back-off.
 */
class DispatcherTest {

    private static final RetryPolicy POLICY = new RetryPolicy(4, Duration.ofMillis(1), 2.0, Duration.ofMillis(10), false);
    private final List<String> calls = new ArrayList<>();

    @Test
    void aRowThatBecameUncertainDuringTheBackOffIsLookedUpNotLeftLeased() {
        OperationView attempt = row(OperationStatus.STARTED, 1);
        OperationView uncertain = row(OperationStatus.UNKNOWN, 2);
        Dispatcher dispatcher = dispatcher(new Capture(new CaptureDecision.Reconcile(), uncertain, OperationStatus.FAILED_RETRYABLE));

        Sent sent = dispatcher.send(attempt, "agent-a", attempt.payload());

        assertEquals(List.of("execute 1", "record 1", "next attempt", "look up 2"), calls);
        assertEquals(OperationStatus.SUCCEEDED, sent.operation().status(), "the look-up's answer is the caller's");
    }

    @Test
    void aRowAnotherCallerTookDuringTheBackOffIsLeftToIt() {
        OperationView attempt = row(OperationStatus.STARTED, 1);
        Dispatcher dispatcher = dispatcher(new Capture(new CaptureDecision.InProgress(Instant.now().plusSeconds(30)),
                row(OperationStatus.STARTED, 2), OperationStatus.STARTED));

        Sent sent = dispatcher.send(attempt, "agent-a", attempt.payload());

        assertEquals(List.of("execute 1", "record 1", "next attempt"), calls);
        assertTrue(!sent.byThisCall());
    }

    private Dispatcher dispatcher(Capture afterBackOff) {
        Dispatcher dispatcher = new Dispatcher();
        dispatcher.targets = new TargetRegistry() {
            @Override
            public Outcome execute(String system, Attempt dispatch) {
                calls.add("execute " + dispatch.attempt());
                return new Outcome.Transient("connect_refused", null, null);
            }
        };
        dispatcher.recorder = new OutcomeRecorder() {
            @Override
            public Recorded record(OperationView attempt, Outcome outcome, Duration took, RetryPolicy policy, String actor) {
                calls.add("record " + attempt.attemptCount());
                return new Recorded(row(OperationStatus.FAILED_RETRYABLE, attempt.attemptCount()), true);
            }
        };
        dispatcher.keyCapture = new KeyCapture() {
            @Override
            public Capture nextAttempt(OperationView failed, String actor) {
                calls.add("next attempt");
                return afterBackOff;
            }
        };
        dispatcher.reconciler = new Reconciler() {
            @Override
            public Reconciled settle(OperationView leased, String actor, JsonObject callerPayload) {
                calls.add("look up " + leased.attemptCount());
                return new Reconciled(row(OperationStatus.SUCCEEDED, leased.attemptCount()),
                        new Lookup.Found("ref-1", JsonValue.EMPTY_JSON_OBJECT), false);
            }
        };
        dispatcher.policies = new RetryPolicies() {
            @Override
            public RetryPolicy of(String system) {
                return POLICY;
            }
        };
        dispatcher.settings = new JournalSettings() {
            @Override
            public Duration lease() {
                return Duration.ofSeconds(30);
            }
        };
        return dispatcher;
    }

    private static OperationView row(OperationStatus status, int attempt) {
        Instant now = Instant.now();
        return new OperationView("acme", "k", "agent-a", "invoice.create", "1c", status, "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT,
                List.of(), status == OperationStatus.SUCCEEDED ? "ref-1" : null, null, null, attempt, now.plusSeconds(30), attempt,
                status == OperationStatus.FAILED_RETRYABLE ? now : null, 0, null, null, now, now, null, null, null, false, null);
    }
}
