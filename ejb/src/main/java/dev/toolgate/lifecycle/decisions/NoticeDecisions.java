package dev.toolgate.lifecycle.decisions;

import dev.toolgate.operation.OperationView;

import java.time.Instant;

/**
 * Whether a target's notification may start a look-up of the operation it names. A notification is a trigger, never
 * evidence: at most it takes the look-up lease the reconcile job would take a little later; an early look-up that
 * learns nothing changes nothing ({@link LookupDecisions}: Release).
 *
 * <pre>
 * row                                         → decision
 * none, or another target's                   → Refuse not_found
 * succeeded / failed_final                    → Refuse settled (late or repeated: the journal holds the outcome)
 * unknown, escalated                          → Refuse escalated (a person settles it)
 * unknown or started, another object recorded → Refuse other_object (a hint that names the wrong operation)
 * unknown or started, its lease held          → Refuse busy (the holder's look-up or outcome settles it)
 * unknown, no lease or a lapsed one           → LookUp
 * started, its lease lapsed                   → LookUp (the attempt may have left: looked up, never sent blindly)
 * pending_approval / failed_retryable         → Refuse not_outstanding (nothing of it is out at the target)
 * </pre>
 */
public final class NoticeDecisions {

    private NoticeDecisions() {
    }

    public sealed interface NoticeDecision {
        record LookUp() implements NoticeDecision {
        }

        /** {@code reason}: what the notification's refusal is counted and logged as. */
        record Refuse(String reason) implements NoticeDecision {
        }
    }

    public static NoticeDecision decide(OperationView row, String target, String objectId, Instant now) {
        if (row == null || !row.target().equals(target)) {
            return new NoticeDecision.Refuse("not_found");
        }
        boolean leaseFree = row.leaseUntil() == null || !row.leaseUntil().isAfter(now);
        String otherObject = row.targetObjectId() != null && !row.targetObjectId().equals(objectId) ? "other_object" : null;
        return switch (row.status()) {
            case SUCCEEDED, FAILED_FINAL -> new NoticeDecision.Refuse("settled");
            case PENDING_APPROVAL, FAILED_RETRYABLE -> new NoticeDecision.Refuse("not_outstanding");
            case UNKNOWN -> row.escalatedAt() != null ? new NoticeDecision.Refuse("escalated")
                    : otherObject != null ? new NoticeDecision.Refuse(otherObject)
                    : leaseFree ? new NoticeDecision.LookUp() : new NoticeDecision.Refuse("busy");
            case STARTED -> otherObject != null ? new NoticeDecision.Refuse(otherObject)
                    : leaseFree ? new NoticeDecision.LookUp() : new NoticeDecision.Refuse("busy");
        };
    }
}
