package dev.toolgate.lifecycle.decisions;

import dev.toolgate.approval.ApprovalStanding;
import java.time.Instant;

/** What a request for an existing operation key may do (the capture table, {@link CapturePolicy}). */
public sealed interface CaptureDecision {

    /** The label of {@code toolgate_captures_total{decision}}: declared, so renaming a record renames no metric. */
    String metricName();

    record Execute() implements CaptureDecision {
        @Override
        public String metricName() {
            return "execute";
        }
    }

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

    record Mismatch() implements CaptureDecision {
        @Override
        public String metricName() {
            return "key_reused";
        }
    }

    /**
     * The row's fingerprint scheme is a newer release's (this one runs again after a rollback): whether the payload is
     * the same cannot be told, so nothing is done and the caller retries where that release answers.
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

    /** The approval was revoked or expired before a new attempt: failed for good, nothing sent. */
    record ApprovalLapsed(ApprovalStanding standing) implements CaptureDecision {
        @Override
        public String metricName() {
            return "approval_lapsed";
        }
    }

    record AwaitingApproval() implements CaptureDecision {
        @Override
        public String metricName() {
            return "awaiting_approval";
        }
    }
}
