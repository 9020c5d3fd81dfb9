package dev.toolgate.search;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import java.time.Instant;

/**
 * Where an operation stands for people watching the journal: its status, plus escalated, lease lapsed (its agent is
 * gone), and approved but waiting for its agent. The unfinished-work page and the metrics count by the same split.
 */
public enum Standing {
    AWAITING_APPROVAL("awaiting approval", false),
    /** Approved — granted, not revoked, not expired — and nothing sent yet: the agent's next call (or a resume) sends it. */
    AWAITING_CALLER("approved, waiting for the agent's next call", false),
    IN_FLIGHT("started, lease held", false),
    LEASE_LAPSED("started, lease lapsed", false),
    UNKNOWN("unknown, to be looked up", false),
    ESCALATED("escalated to a person", false),
    RETRY_WAITING("failed, waiting for the caller to retry", false),
    SUCCEEDED("succeeded", true),
    FAILED("failed for good", true);

    private final String words;
    private final boolean finished;

    Standing(String words, boolean finished) {
        this.words = words;
        this.finished = finished;
    }

    /** An approval that expired unused puts the operation back among those awaiting a decision: a new one may be granted. */
    public static Standing of(OperationStatus status, boolean approvalActive, Instant escalatedAt, Instant leaseUntil, Instant now) {
        return switch (status) {
            case PENDING_APPROVAL -> approvalActive ? AWAITING_CALLER : AWAITING_APPROVAL;
            case STARTED -> leaseUntil != null && leaseUntil.isAfter(now) ? IN_FLIGHT : LEASE_LAPSED;
            case UNKNOWN -> escalatedAt != null ? ESCALATED : UNKNOWN;
            case FAILED_RETRYABLE -> RETRY_WAITING;
            case SUCCEEDED -> SUCCEEDED;
            case FAILED_FINAL -> FAILED;
        };
    }

    public static Standing of(OperationView operation, boolean approvalActive, Instant now) {
        return of(operation.status(), approvalActive, operation.escalatedAt(), operation.leaseUntil(), now);
    }

    public String words() {
        return words;
    }

    public boolean finished() {
        return finished;
    }

    public String metricStatus() {
        return switch (this) {
            case AWAITING_APPROVAL, AWAITING_CALLER -> "pending_approval";
            case IN_FLIGHT, LEASE_LAPSED -> "started";
            case UNKNOWN -> "unknown";
            case ESCALATED -> "escalated";
            case RETRY_WAITING -> "failed_retryable";
            case SUCCEEDED -> "succeeded";
            case FAILED -> "failed_final";
        };
    }

    public String slug() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
