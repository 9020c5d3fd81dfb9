package dev.toolgate.journal;

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

    /** A stored approval is evidence, not live authority (DESIGN §7): only these permit a new attempt. */
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
