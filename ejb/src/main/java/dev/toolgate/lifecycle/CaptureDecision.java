package dev.toolgate.lifecycle;

import dev.toolgate.approval.ApprovalStanding;
import java.time.Instant;

/** What a request for an existing operation key may do (the capture table, {@link CapturePolicy}). */
public sealed interface CaptureDecision {

    /** The label of {@code toolgate_captures_total{decision}}: declared, so renaming a record renames no metric. */
    String metricName();

    /** This caller owns a new attempt: call the target. */
    record Execute() implements CaptureDecision {
        @Override
        public String metricName() {
            return "execute";
        }
    }

    /** The outcome is final: answer with the stored result or error. */
    record Replay() implements CaptureDecision {
        @Override
        public String metricName() {
            return "replay";
        }
    }

    /** Another caller holds the lease: the result is being clarified. */
    record InProgress(Instant leaseUntil) implements CaptureDecision {
        @Override
        public String metricName() {
            return "in_progress";
        }
    }

    /** Same key, different payload: rejected, nothing executed. */
    record Mismatch() implements CaptureDecision {
        @Override
        public String metricName() {
            return "key_reused";
        }
    }

    /**
     * The row's fingerprint was made under a scheme this release does not know (a newer release wrote it, and this
     * one runs again after a rollback): whether the retry's payload is the same cannot be told here, so nothing is done
     * and the caller retries where a release that knows the scheme answers ({@code canonical.FingerprintSchemes}).
     */
    record FingerprintUncheckable() implements CaptureDecision {
        @Override
        public String metricName() {
            return "fingerprint_uncheckable";
        }
    }

    /** The effect may exist: look it up by our key before anything is sent again. */
    record Reconcile() implements CaptureDecision {
        @Override
        public String metricName() {
            return "reconcile";
        }
    }

    /** The outcome is unknown and the next look-up is not due yet (or another caller is looking). */
    record Unsettled(Instant retryAt) implements CaptureDecision {
        @Override
        public String metricName() {
            return "unsettled";
        }
    }

    /** Provably not executed, and the back-off (or the target's Retry-After) has not passed yet. */
    record RetryLater(Instant retryAt) implements CaptureDecision {
        @Override
        public String metricName() {
            return "retry_later";
        }
    }

    /** Reconciliation could not settle it (or found a duplicate): a person decides, nothing automatic. */
    record Escalated() implements CaptureDecision {
        @Override
        public String metricName() {
            return "escalated";
        }
    }

    /**
     * The approval this operation needs was revoked or expired before a new attempt: it fails for
     * good with {@code standing.lapseCode()}, and nothing is sent.
     */
    record ApprovalLapsed(ApprovalStanding standing) implements CaptureDecision {
        @Override
        public String metricName() {
            return "approval_lapsed";
        }
    }

    /** Waiting for a person's approval. */
    record AwaitingApproval() implements CaptureDecision {
        @Override
        public String metricName() {
            return "awaiting_approval";
        }
    }
}
