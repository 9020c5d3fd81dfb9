package dev.toolgate.approval;

import dev.toolgate.journal.OperationView;

/** Where an operation stands with its approval, at one moment: what decides whether a new attempt may be sent. */
public enum ApprovalStanding {
    /** Its operation type needs no approval. */
    NOT_REQUIRED,
    /** Needs one, and none has been granted yet. */
    AWAITING,
    /** Granted, bound to this key and fingerprint, not revoked, not expired. */
    ACTIVE,
    REVOKED,
    EXPIRED;

    /**
     * Where {@code operation} stands with {@code approval} (null: none granted) at {@code now}. An approval
     * for another fingerprint is no approval: a changed amount, currency or recipient is a new intent.
     */
    public static ApprovalStanding of(OperationView operation, ApprovalView approval, java.time.Instant now) {
        if (!operation.approvalRequired()) {
            return NOT_REQUIRED;
        }
        if (approval == null || !approval.requestHash().equals(operation.requestHash())) {
            return AWAITING;
        }
        if (approval.revokedAt() != null) {
            return REVOKED;
        }
        return approval.expiresAt().isAfter(now) ? ACTIVE : EXPIRED;
    }

    /** A stored approval is evidence, not live authority: only these permit a new attempt. */
    public boolean permitsAttempt() {
        return this == NOT_REQUIRED || this == ACTIVE;
    }

    /** The error code an operation fails with when its approval lapsed before an attempt. */
    public String lapseCode() {
        return this == REVOKED ? "approval_revoked" : "approval_expired";
    }

    public String dbName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
