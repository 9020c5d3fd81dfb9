package dev.toolgate.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.RetryPolicy;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The one loop's steps between capture and settled, with the phases played by stand-ins (each phase's SQL
 * has its own PostgreSQL tests, the whole loop the end-to-end suites): what it does after a transient failure,
 * after a look-up, and when the row changed while it waited out a back-off.
 */
class OperationLoopTest {

    private static final RetryPolicy POLICY = new RetryPolicy(4, Duration.ofMillis(1), 2.0, Duration.ofMillis(10), false);
    private final List<String> calls = new ArrayList<>();

    @Test
    void aRowThatBecameUncertainDuringTheBackOffIsLookedUpNotLeftLeased() {
        OperationView attempt = row(OperationStatus.STARTED, 1);
        OperationLoop loop = loop(new Capture(new CaptureDecision.Reconcile(), row(OperationStatus.UNKNOWN, 2), OperationStatus.FAILED_RETRYABLE),
                new Reconciled(row(OperationStatus.SUCCEEDED, 2), new Lookup.Found("ref-1", JsonValue.EMPTY_JSON_OBJECT), false),
                OperationStatus.FAILED_RETRYABLE);

        Driven driven = loop.drive(new CaptureDecision.Execute(), attempt, "agent-a", attempt.payload());

        assertEquals(List.of("send 1", "next attempt", "look up 2"), calls);
        assertEquals(OperationStatus.SUCCEEDED, driven.operation().status(), "the look-up's answer is the caller's");
        assertFalse(driven.byThisCall(), "found by a look-up: an earlier attempt's effect, answered as a replay");
    }

    @Test
    void aRowAnotherCallerTookDuringTheBackOffIsLeftToIt() {
        OperationView attempt = row(OperationStatus.STARTED, 1);
        OperationLoop loop = loop(new Capture(new CaptureDecision.InProgress(Instant.now().plusSeconds(30)),
                row(OperationStatus.STARTED, 2), OperationStatus.STARTED), null, OperationStatus.FAILED_RETRYABLE);

        Driven driven = loop.drive(new CaptureDecision.Execute(), attempt, "agent-a", attempt.payload());

        assertEquals(List.of("send 1", "next attempt"), calls);
        assertFalse(driven.byThisCall());
    }

    @Test
    void aLookUpThatProvesNothingHappenedSendsTheNextAttemptInTheSameDrive() {
        OperationLoop loop = loop(null, new Reconciled(row(OperationStatus.STARTED, 2), new Lookup.Absent(), true), OperationStatus.SUCCEEDED);

        Driven driven = loop.drive(new CaptureDecision.Reconcile(), row(OperationStatus.UNKNOWN, 1), "reconcile-job", null);

        assertEquals(List.of("look up 1", "send 2"), calls);
        assertTrue(driven.byThisCall());
        assertEquals("sent", driven.outcome(), "the job counts the look-up that let the attempt go");
    }

    @Test
    void aLookUpThatFindsTheEffectSendsNothing() {
        OperationLoop loop = loop(null, new Reconciled(row(OperationStatus.SUCCEEDED, 1), new Lookup.Found("ref-1", JsonValue.EMPTY_JSON_OBJECT), false),
                OperationStatus.SUCCEEDED);

        Driven driven = loop.drive(new CaptureDecision.Reconcile(), row(OperationStatus.UNKNOWN, 1), "reconcile-job", null);

        assertEquals(List.of("look up 1"), calls);
        assertEquals("found", driven.outcome());
    }

    @Test
    void aDecisionThatActedUnderTheLockIsAnsweredWithoutATargetCall() {
        OperationView running = row(OperationStatus.STARTED, 1);

        Driven driven = loop(null, null, OperationStatus.SUCCEEDED).drive(new CaptureDecision.InProgress(Instant.now()), running, "agent-a", running.payload());

        assertEquals(List.of(), calls);
        assertEquals(running, driven.operation());
    }

    private OperationLoop loop(Capture afterBackOff, Reconciled lookedUp, OperationStatus attemptEndsAs) {
        OperationLoop loop = new OperationLoop();
        loop.dispatcher = new Dispatcher() {
            @Override
            public Sent send(OperationView attempt, String actor, JsonObject payload, RetryPolicy policy) {
                calls.add("send " + attempt.attemptCount());
                return new Sent(row(attemptEndsAs, attempt.attemptCount()), true);
            }
        };
        loop.keyCapture = new KeyCapture() {
            @Override
            public Capture nextAttempt(OperationView failed, String actor) {
                calls.add("next attempt");
                return afterBackOff;
            }
        };
        loop.reconciler = new Reconciler() {
            @Override
            public Reconciled lookUp(OperationView leased, String actor, boolean canResend, RetryPolicy policy) {
                calls.add("look up " + leased.attemptCount());
                return lookedUp;
            }
        };
        loop.policies = new RetryPolicies() {
            @Override
            public RetryPolicy of(String system) {
                return POLICY;
            }
        };
        return loop;
    }

    private static OperationView row(OperationStatus status, int attempt) {
        Instant now = Instant.now();
        return new OperationView("acme", "k", "agent-a", "invoice.create", "1c", status, "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT,
                List.of(), status == OperationStatus.SUCCEEDED ? "ref-1" : null, null, null, attempt, now.plusSeconds(30), attempt,
                status == OperationStatus.FAILED_RETRYABLE ? now : null, 0, null, null, now, now, null, null, null, false, null);
    }
}
