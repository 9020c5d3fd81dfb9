package dev.toolgate.gateway;

import dev.toolgate.approval.ApprovalView;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.operation.OperationView;

import java.time.Instant;

/**
 * What whoever holds an operation should do next, read from its record alone (a replacement agent inherits the
 * operation, it does not re-plan it). A pure function, so the handover answer and its tests agree on every state.
 *
 * @param action {@code none}, {@code wait}, {@code resume}, {@code resend_original}, {@code approve}, {@code resolve}
 * @param after  not before this moment (null: now)
 * @param who    the role that acts: {@code agent}, {@code approver}, {@code operator}, or null for none
 */
public record NextAction(String action, Instant after, String who, String detail) {

    public static NextAction of(OperationView op, ApprovalView approval, Instant now) {
        ApprovalStanding standing = ApprovalStanding.of(op, approval, now);
        boolean needsOriginal = !op.withheldFields().isEmpty();
        return switch (op.status()) {
            case SUCCEEDED -> new NextAction("none", null, null, "succeeded: the same key replays the stored result");
            case FAILED_FINAL -> new NextAction("none", null, null,
                    "failed for good: another attempt at the intent is a new operation with a new key");
            case PENDING_APPROVAL -> switch (standing) {
                case AWAITING -> new NextAction("approve", null, "approver", "an approver approves this key and fingerprint");
                case ACTIVE -> new NextAction(needsOriginal ? "resend_original" : "resume", null, "agent",
                        "approved until " + approval.expiresAt() + ": the first attempt may be sent");
                default -> new NextAction("none", null, null, "the approval was " + standing.dbName() + ": nothing will be sent");
            };
            case STARTED -> op.leaseUntil() != null && op.leaseUntil().isAfter(now)
                    ? new NextAction("wait", op.leaseUntil(), "agent", "attempt " + op.attemptCount() + " is in flight")
                    : new NextAction("resume", null, "agent",
                    "the owner of attempt " + op.attemptCount() + " is gone: resuming looks the effect up before anything is sent");
            case FAILED_RETRYABLE -> new NextAction(needsOriginal ? "resend_original" : "resume", op.nextCheckAt(), "agent",
                    "nothing was executed; the next attempt re-checks the approval first");
            case UNKNOWN -> op.escalated()
                    ? new NextAction("resolve", null, "operator", "reconciliation could not settle it: an operator resolves it with evidence")
                    : new NextAction("resume", op.nextCheckAt(), "agent",
                    "the effect may exist: resuming looks it up by key; nothing is sent before that");
        };
    }
}
