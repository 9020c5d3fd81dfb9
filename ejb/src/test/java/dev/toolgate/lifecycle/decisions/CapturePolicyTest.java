package dev.toolgate.lifecycle.decisions;

import dev.toolgate.operation.OperationStatus;
import static dev.toolgate.operation.OperationStatus.FAILED_FINAL;
import static dev.toolgate.operation.OperationStatus.FAILED_RETRYABLE;
import static dev.toolgate.operation.OperationStatus.PENDING_APPROVAL;
import static dev.toolgate.operation.OperationStatus.STARTED;
import static dev.toolgate.operation.OperationStatus.SUCCEEDED;
import static dev.toolgate.operation.OperationStatus.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.toolgate.approval.ApprovalStanding;
import org.junit.jupiter.api.Test;

import java.time.Instant;

/** One test per row of the capture table ({@link CapturePolicy}, docs/lifecycle.md). */
class CapturePolicyTest {

    private static final String HASH = "a".repeat(64);
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final Instant LATER = NOW.plusSeconds(20);
    private static final Instant EARLIER = NOW.minusSeconds(1);

    @Test
    void rejectsSameKeyWithDifferentPayload() {
        for (OperationStatus status : OperationStatus.values()) {
            assertInstanceOf(CaptureDecision.Mismatch.class, decide(status, "b".repeat(64), LATER, null), status.name());
        }
    }

    @Test
    void neverCallsARetryOfAKeyANewerReleaseFingerprintedAReusedKey() {
        for (OperationStatus status : OperationStatus.values()) {
            CaptureDecision decision = CapturePolicy.decide(new OperationState(status, "s2:" + HASH, LATER, null, false,
                    ApprovalStanding.NOT_REQUIRED), HASH, NOW);
            assertInstanceOf(CaptureDecision.FingerprintUncheckable.class, decision, status.name());
        }
    }

    @Test
    void replaysSucceededOperation() {
        assertInstanceOf(CaptureDecision.Replay.class, decide(SUCCEEDED, HASH, null, null));
    }

    @Test
    void replaysStoredFinalError() {
        assertInstanceOf(CaptureDecision.Replay.class, decide(FAILED_FINAL, HASH, null, null));
    }

    @Test
    void deniesWhileLeaseHeld() {
        CaptureDecision d = decide(STARTED, HASH, LATER, null);
        assertEquals(new CaptureDecision.InProgress(LATER), d);
    }

    @Test
    void treatsExpiredLeaseAsUnknownAndReconciles() {
        assertInstanceOf(CaptureDecision.Reconcile.class, decide(STARTED, HASH, EARLIER, null));
        assertInstanceOf(CaptureDecision.Reconcile.class, decide(STARTED, HASH, NOW, null)); // a lease ending now has ended
    }

    @Test
    void reconcilesUnknownBeforeRetry() {
        assertInstanceOf(CaptureDecision.Reconcile.class, decide(UNKNOWN, HASH, null, null));
        assertInstanceOf(CaptureDecision.Reconcile.class, decide(UNKNOWN, HASH, EARLIER, EARLIER));
    }

    @Test
    void doesNotLookUpUnknownWhileAnotherCallerIsLooking() {
        assertEquals(new CaptureDecision.Unsettled(LATER), decide(UNKNOWN, HASH, LATER, null));
    }

    @Test
    void doesNotLookUpUnknownBeforeTheNextCheckIsDue() {
        assertEquals(new CaptureDecision.Unsettled(LATER), decide(UNKNOWN, HASH, null, LATER));
    }

    @Test
    void takesNewAttemptAfterRetryableFailureOnceTheBackOffPassed() {
        assertInstanceOf(CaptureDecision.Execute.class, decide(FAILED_RETRYABLE, HASH, null, null));
        assertInstanceOf(CaptureDecision.Execute.class, decide(FAILED_RETRYABLE, HASH, null, EARLIER));
    }

    @Test
    void waitsOutTheBackOffOfARetryableFailure() {
        assertEquals(new CaptureDecision.RetryLater(LATER), decide(FAILED_RETRYABLE, HASH, null, LATER));
    }

    @Test
    void leavesAnEscalatedOperationToAPerson() {
        CaptureDecision d = CapturePolicy.decide(new OperationState(UNKNOWN, HASH, null, null, true, ApprovalStanding.NOT_REQUIRED), HASH, NOW);
        assertInstanceOf(CaptureDecision.Escalated.class, d);
    }

    @Test
    void waitsForApproval() {
        assertInstanceOf(CaptureDecision.AwaitingApproval.class, decide(PENDING_APPROVAL, HASH, null, null));
    }

    @Test
    void sendsTheFirstAttemptOnceApproved() {
        assertInstanceOf(CaptureDecision.Execute.class, withApproval(PENDING_APPROVAL, null, ApprovalStanding.ACTIVE));
    }

    @Test
    void failsForGoodWhenTheApprovalLapsedBeforeTheFirstAttempt() {
        assertEquals(new CaptureDecision.ApprovalLapsed(ApprovalStanding.REVOKED),
                withApproval(PENDING_APPROVAL, null, ApprovalStanding.REVOKED));
        assertEquals(new CaptureDecision.ApprovalLapsed(ApprovalStanding.EXPIRED),
                withApproval(PENDING_APPROVAL, null, ApprovalStanding.EXPIRED));
    }

    @Test
    void checksTheApprovalAgainBeforeEveryRetry() {
        assertInstanceOf(CaptureDecision.Execute.class, withApproval(FAILED_RETRYABLE, EARLIER, ApprovalStanding.ACTIVE));
        assertEquals(new CaptureDecision.ApprovalLapsed(ApprovalStanding.REVOKED), withApproval(FAILED_RETRYABLE, EARLIER, ApprovalStanding.REVOKED));
        assertEquals(new CaptureDecision.ApprovalLapsed(ApprovalStanding.EXPIRED), withApproval(FAILED_RETRYABLE, EARLIER, ApprovalStanding.EXPIRED));
    }

    @Test
    void neverSkipsTheLookUpOfAnUnknownOutcomeBecauseAnApprovalLapsed() {
        // the effect may exist: a revoked approval forbids a new attempt, not finding out what happened
        assertInstanceOf(CaptureDecision.Reconcile.class, withApproval(UNKNOWN, null, ApprovalStanding.REVOKED));
        assertInstanceOf(CaptureDecision.Reconcile.class, withApproval(STARTED, null, ApprovalStanding.EXPIRED));
    }

    @Test
    void replaysAFinishedOperationWhateverBecameOfItsApproval() {
        assertInstanceOf(CaptureDecision.Replay.class, withApproval(SUCCEEDED, null, ApprovalStanding.REVOKED));
    }

    private static CaptureDecision withApproval(OperationStatus status, Instant nextCheckAt, ApprovalStanding approval) {
        return CapturePolicy.decide(new OperationState(status, HASH, null, nextCheckAt, false, approval), HASH, NOW);
    }

    /** The first look's shortcut (a finished row answered without its lock) is the table's replay, and only that. */
    @Test
    void aRowIsAnsweredAsReadExactlyWhenTheTableReplaysIt() {
        for (OperationStatus status : OperationStatus.values()) {
            for (String requestHash : java.util.List.of(HASH, "b".repeat(64), "s2:" + HASH)) {
                for (Instant leaseUntil : java.util.Arrays.asList(null, EARLIER, LATER)) {
                    boolean replay = decide(status, requestHash, leaseUntil, null) instanceof CaptureDecision.Replay;
                    assertEquals(replay, CapturePolicy.replayedAsRead(status, HASH, requestHash), status + " " + requestHash + " " + leaseUntil);
                }
            }
        }
    }

    private static CaptureDecision decide(OperationStatus status, String requestHash, Instant leaseUntil, Instant nextCheckAt) {
        ApprovalStanding approval = status == PENDING_APPROVAL ? ApprovalStanding.AWAITING : ApprovalStanding.NOT_REQUIRED;
        return CapturePolicy.decide(new OperationState(status, HASH, leaseUntil, nextCheckAt, false, approval), requestHash, NOW);
    }
}
