package dev.toolgate.journal;

import dev.toolgate.approval.ApprovalStanding;
import java.time.Instant;

/** What a request for an existing operation key may do (DESIGN §3, the capture table). */
public sealed interface CaptureDecision {

    /** This caller owns a new attempt: call the target. */
    record Execute() implements CaptureDecision {
    }

    /** The outcome is final: answer with the stored result or error. */
    record Replay() implements CaptureDecision {
    }

    /** Another caller holds the lease: the result is being clarified. */
    record InProgress(Instant leaseUntil) implements CaptureDecision {
    }

    /** Same key, different payload: rejected, nothing executed. */
    record Mismatch() implements CaptureDecision {
    }

    /** The effect may exist: look it up by our key before anything is sent again. */
    record Reconcile() implements CaptureDecision {
    }

    /** The outcome is unknown and the next look-up is not due yet (or another caller is looking). */
    record Unsettled(Instant retryAt) implements CaptureDecision {
    }

    /** Provably not executed, and the back-off (or the target's Retry-After) has not passed yet. */
    record RetryLater(Instant retryAt) implements CaptureDecision {
    }

    /** Reconciliation could not settle it (or found a duplicate): a person decides, nothing automatic. */
    record Escalated() implements CaptureDecision {
    }

    /**
     * The approval this operation needs was revoked or expired before a new attempt: it fails for
     * good with {@code standing.lapseCode()}, and nothing is sent.
     */
    record ApprovalLapsed(ApprovalStanding standing) implements CaptureDecision {
    }

    /** Waiting for a person's approval. */
    record AwaitingApproval() implements CaptureDecision {
    }
}
