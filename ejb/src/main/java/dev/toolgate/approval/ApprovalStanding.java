package dev.toolgate.approval;

import dev.toolgate.operation.OperationView;

/** Where an operation stands with its approval, at one moment: what decides whether a new attempt may be sent. */
public enum ApprovalStanding {
    NOT_REQUIRED,
    AWAITING,
    /** Granted, bound to this key and fingerprint, not revoked, not expired. */
    ACTIVE,
    REVOKED,
    EXPIRED;

    /** An approval for another fingerprint is no approval: a changed amount, currency or recipient is a new intent. */
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

    public String lapseCode() {
        return this == REVOKED ? "approval_revoked" : "approval_expired";
    }

    /** The error code of an operation a person declined before any approval was used: nothing was sent. */
    public static final String DECLINED_CODE = "approval_declined";

    public static boolean lapsed(String errorCode) {
        return REVOKED.lapseCode().equals(errorCode) || EXPIRED.lapseCode().equals(errorCode) || DECLINED_CODE.equals(errorCode);
    }

    public static String lapseWord(String errorCode) {
        return DECLINED_CODE.equals(errorCode) ? "declined" : REVOKED.lapseCode().equals(errorCode) ? "revoked" : "expired";
    }

    public String dbName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
