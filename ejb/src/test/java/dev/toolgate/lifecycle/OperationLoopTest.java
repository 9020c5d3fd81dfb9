package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.FirstCapture.KeyLook;
import dev.toolgate.lifecycle.decisions.CaptureDecision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.canonical.CanonicalRequest;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.metrics.GatewayMetrics;
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
import java.util.Set;

/**
 * The one loop's steps from capture to settled, with the phases played by stand-ins (each phase's SQL has its own
 * PostgreSQL tests, the whole loop the end-to-end suites): which rows the capture answers as read and which it decides
 * under the lock, what the loop does after a transient failure, after a look-up, and when the row changed while it
 * waited out a back-off.
 */
class OperationLoopTest {

    private static final RetryPolicy POLICY = new RetryPolicy(4, Duration.ofMillis(1), 2.0, Duration.ofMillis(10), false);
    private static final Caller AGENT = new Caller("agent-a", "acme", Set.of(Role.AGENT));
    private final List<String> calls = new ArrayList<>();
    /** What the first statement finds, and what the capture under the row lock decides, for the capture's tests. */
    private KeyLook firstLook;
    private Phase underLock;

    @Test
    void aFinishedRowWithThisPayloadIsReplayedAsReadWithoutItsLock() {
        OperationView done = row(OperationStatus.SUCCEEDED, 1);
        firstLook = new KeyLook.Found(done);

        Phase answer = loop(null, null, OperationStatus.SUCCEEDED).submit(AGENT, "k", request(done.requestHash()));

        assertEquals(List.of("first look"), calls, "no lock, no target call");
        assertInstanceOf(CaptureDecision.Replay.class, answer.decision());
        assertFalse(answer.byThisCall(), "answered as a replay");
        assertEquals(done, answer.operation());
    }

    @Test
    void aFinishedRowReadOnceIsReplayedFromMemoryAfterwards() {
        OperationView done = row(OperationStatus.SUCCEEDED, 1);
        firstLook = new KeyLook.Found(done);
        OperationLoop loop = loop(null, null, OperationStatus.SUCCEEDED);

        loop.submit(AGENT, "k", request(done.requestHash()));
        Phase again = loop.submit(AGENT, "k", request(done.requestHash()));

        assertEquals(List.of("first look"), calls, "the second replay makes no statement");
        assertInstanceOf(CaptureDecision.Replay.class, again.decision());
        assertFalse(again.byThisCall());
        assertEquals(done, again.operation());
    }

    @Test
    void anOperationThisInstanceFinishedIsReplayedWithoutAStatement() {
        firstLook = new KeyLook.Captured(captured(new CaptureDecision.Execute(), null, row(OperationStatus.STARTED, 1)));
        OperationLoop loop = loop(null, null, OperationStatus.SUCCEEDED);

        Phase first = loop.submit(AGENT, "k", request("a".repeat(64)));
        Phase retry = loop.submit(AGENT, "k", request("a".repeat(64)));

        assertEquals(List.of("first look", "send 1"), calls, "the retry whose answer was lost costs no statement");
        assertTrue(first.byThisCall());
        assertFalse(retry.byThisCall(), "answered as a replay");
        assertEquals(first.operation(), retry.operation());
    }

    @Test
    void aHeldRowAskedWithAnotherPayloadIsDecidedUnderItsLock() {
        OperationView done = row(OperationStatus.SUCCEEDED, 1);
        firstLook = new KeyLook.Found(done);
        OperationLoop loop = loop(null, null, OperationStatus.SUCCEEDED);
        loop.submit(AGENT, "k", request(done.requestHash()));
        underLock = captured(new CaptureDecision.Mismatch(), OperationStatus.SUCCEEDED, done);

        Phase answer = loop.submit(AGENT, "k", request("b".repeat(64)));

        assertEquals(List.of("first look", "first look", "capture under lock"), calls, "never refused from memory");
        assertInstanceOf(CaptureDecision.Mismatch.class, answer.decision());
    }

    @Test
    void aFinishedRowWithAnotherPayloadIsDecidedUnderItsLock() {
        OperationView done = row(OperationStatus.SUCCEEDED, 1);
        firstLook = new KeyLook.Found(done);
        underLock = captured(new CaptureDecision.Mismatch(), OperationStatus.SUCCEEDED, done);

        Phase answer = loop(null, null, OperationStatus.SUCCEEDED).submit(AGENT, "k", request("b".repeat(64)));

        assertEquals(List.of("first look", "capture under lock"), calls);
        assertInstanceOf(CaptureDecision.Mismatch.class, answer.decision());
    }

    @Test
    void aRowNotFinishedIsDecidedUnderItsLockAndSentWhenItLeasesTheNextAttempt() {
        firstLook = new KeyLook.Found(row(OperationStatus.FAILED_RETRYABLE, 1));
        underLock = captured(new CaptureDecision.Execute(), OperationStatus.FAILED_RETRYABLE, row(OperationStatus.STARTED, 2));

        Phase answer = loop(null, null, OperationStatus.SUCCEEDED).submit(AGENT, "k", request("a".repeat(64)));

        assertEquals(List.of("first look", "capture under lock", "send 2"), calls);
        assertTrue(answer.byThisCall());
        assertEquals(OperationStatus.SUCCEEDED, answer.operation().status());
    }

    @Test
    void aNewKeyCapturedByTheFirstStatementIsSentWithoutTheLock() {
        firstLook = new KeyLook.Captured(captured(new CaptureDecision.Execute(), null, row(OperationStatus.STARTED, 1)));

        Phase answer = loop(null, null, OperationStatus.SUCCEEDED).submit(AGENT, "k", request("a".repeat(64)));

        assertEquals(List.of("first look", "send 1"), calls);
        assertTrue(answer.byThisCall(), "this call's own outcome: not a replay");
    }

    @Test
    void anotherCallersRowNotYetVisibleIsDecidedUnderItsLock() {
        firstLook = new KeyLook.Raced();
        underLock = captured(new CaptureDecision.InProgress(Instant.now().plusSeconds(30)), OperationStatus.STARTED,
                row(OperationStatus.STARTED, 1));

        Phase answer = loop(null, null, OperationStatus.SUCCEEDED).submit(AGENT, "k", request("a".repeat(64)));

        assertEquals(List.of("first look", "capture under lock"), calls);
        assertFalse(answer.byThisCall(), "another caller's attempt");
    }

    @Test
    void aRowThatBecameUncertainDuringTheBackOffIsLookedUpNotLeftLeased() {
        OperationView attempt = row(OperationStatus.STARTED, 1);
        OperationLoop loop = loop(captured(new CaptureDecision.Reconcile(), OperationStatus.FAILED_RETRYABLE, row(OperationStatus.UNKNOWN, 2)),
                lookedUp(row(OperationStatus.SUCCEEDED, 2), new Lookup.Found("ref-1", JsonValue.EMPTY_JSON_OBJECT), false),
                OperationStatus.FAILED_RETRYABLE);

        Phase driven = loop.drive(new CaptureDecision.Execute(), attempt, "agent-a", attempt.payload());

        assertEquals(List.of("send 1", "next attempt", "look up 2"), calls);
        assertEquals(OperationStatus.SUCCEEDED, driven.operation().status(), "the look-up's answer is the caller's");
        assertFalse(driven.byThisCall(), "found by a look-up: an earlier attempt's effect, answered as a replay");
    }

    @Test
    void aRowAnotherCallerTookDuringTheBackOffIsLeftToIt() {
        OperationView attempt = row(OperationStatus.STARTED, 1);
        OperationLoop loop = loop(captured(new CaptureDecision.InProgress(Instant.now().plusSeconds(30)), OperationStatus.STARTED,
                row(OperationStatus.STARTED, 2)), null, OperationStatus.FAILED_RETRYABLE);

        Phase driven = loop.drive(new CaptureDecision.Execute(), attempt, "agent-a", attempt.payload());

        assertEquals(List.of("send 1", "next attempt"), calls);
        assertFalse(driven.byThisCall());
    }

    @Test
    void anApprovalThatLapsedDuringTheBackOffIsThisCallsOutcomeNotAReplay() {
        OperationView attempt = row(OperationStatus.STARTED, 1);
        OperationLoop loop = loop(captured(new CaptureDecision.ApprovalLapsed(ApprovalStanding.EXPIRED), OperationStatus.FAILED_RETRYABLE,
                row(OperationStatus.FAILED_FINAL, 1)), null, OperationStatus.FAILED_RETRYABLE);

        Phase driven = loop.drive(new CaptureDecision.Execute(), attempt, "agent-a", attempt.payload());

        assertEquals(List.of("send 1", "next attempt"), calls);
        assertEquals(OperationStatus.FAILED_FINAL, driven.operation().status());
        assertTrue(driven.byThisCall(), "this drive wrote the lapse under the lock: its agent hears it first, not as a replay");
    }

    @Test
    void aLookUpThatProvesNothingHappenedSendsTheNextAttemptInTheSameDrive() {
        OperationLoop loop = loop(null, lookedUp(row(OperationStatus.STARTED, 2), new Lookup.Absent(), true), OperationStatus.SUCCEEDED);

        Phase driven = loop.drive(new CaptureDecision.Reconcile(), row(OperationStatus.UNKNOWN, 1), "reconcile-job", null);

        assertEquals(List.of("look up 1", "send 2"), calls);
        assertTrue(driven.byThisCall());
        assertEquals("sent", driven.outcome(), "the job counts the look-up that let the attempt go");
    }

    @Test
    void aLookUpThatFindsTheEffectSendsNothing() {
        OperationLoop loop = loop(null, lookedUp(row(OperationStatus.SUCCEEDED, 1), new Lookup.Found("ref-1", JsonValue.EMPTY_JSON_OBJECT), false),
                OperationStatus.SUCCEEDED);

        Phase driven = loop.drive(new CaptureDecision.Reconcile(), row(OperationStatus.UNKNOWN, 1), "reconcile-job", null);

        assertEquals(List.of("look up 1"), calls);
        assertEquals("found", driven.outcome());
    }

    @Test
    void aDecisionThatActedUnderTheLockIsAnsweredWithoutATargetCall() {
        OperationView running = row(OperationStatus.STARTED, 1);

        Phase driven = loop(null, null, OperationStatus.SUCCEEDED).drive(new CaptureDecision.InProgress(Instant.now()), running, "agent-a", running.payload());

        assertEquals(List.of(), calls);
        assertEquals(running, driven.operation());
    }

    private OperationLoop loop(Phase afterBackOff, Phase lookedUp, OperationStatus attemptEndsAs) {
        OperationLoop loop = new OperationLoop();
        loop.metrics = new GatewayMetrics();
        loop.finished = new FinishedOperations(100, Duration.ofMinutes(10), Duration.ofDays(30));
        loop.firstCapture = new FirstCapture() {
            @Override
            public KeyLook look(Caller caller, String key, CanonicalRequest request) {
                calls.add("first look");
                return firstLook;
            }
        };
        loop.dispatcher = new Dispatcher() {
            @Override
            public Phase send(OperationView attempt, String actor, JsonObject payload, RetryPolicy policy) {
                calls.add("send " + attempt.attemptCount());
                return Phase.attempted(attempt, row(attemptEndsAs, attempt.attemptCount()), true);
            }
        };
        loop.keyCapture = new KeyCapture() {
            @Override
            public Phase capture(Caller caller, String key, CanonicalRequest request) {
                calls.add("capture under lock");
                return underLock;
            }

            @Override
            public Phase nextAttempt(OperationView failed, String actor) {
                calls.add("next attempt");
                return afterBackOff;
            }
        };
        loop.reconciler = new Reconciler() {
            @Override
            public Phase lookUp(OperationView leased, String actor, boolean canResend, RetryPolicy policy) {
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

    private static CanonicalRequest request(String fingerprint) {
        return new CanonicalRequest("invoice.create", "1c", JsonValue.EMPTY_JSON_OBJECT, JsonValue.EMPTY_JSON_OBJECT, List.of(), fingerprint);
    }

    private static Phase captured(CaptureDecision decision, OperationStatus before, OperationView row) {
        return Phase.captured(decision, before, row);
    }

    private static Phase lookedUp(OperationView after, Lookup lookup, boolean retryNow) {
        return Phase.lookedUp(row(OperationStatus.UNKNOWN, after.attemptCount()), after, retryNow, lookup);
    }

    private static OperationView row(OperationStatus status, int attempt) {
        Instant now = Instant.now();
        return new OperationView("acme", "k", "agent-a", "invoice.create", "1c", status, "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT,
                List.of(), status == OperationStatus.SUCCEEDED ? "ref-1" : null, null, null, attempt, now.plusSeconds(30), attempt,
                status == OperationStatus.FAILED_RETRYABLE ? now : null, 0, null, null, now, now, status.isTerminal() ? now : null,
                null, null, false, null);
    }
}
