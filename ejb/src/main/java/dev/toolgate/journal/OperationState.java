package dev.toolgate.journal;

import dev.toolgate.approval.ApprovalStanding;
import java.time.Instant;

/** What the capture decision needs to know about an existing row. */
public record OperationState(OperationStatus status, String requestHash, Instant leaseUntil, Instant nextCheckAt,
                             boolean escalated, ApprovalStanding approval) {

    boolean leaseActive(Instant now) {
        return leaseUntil != null && leaseUntil.isAfter(now);
    }

    boolean checkDue(Instant now) {
        return nextCheckAt == null || !nextCheckAt.isAfter(now);
    }
}
