package dev.toolgate.approval;

import java.time.Instant;

/** An approval as it leaves the journal. */
public record ApprovalView(String id, String tenant, String operationKey, String requestHash, String grantedBy,
                           Instant grantedAt, Instant expiresAt, String note, String revokedBy, Instant revokedAt,
                           String revokeReason, ApprovalStanding standing) {
}
