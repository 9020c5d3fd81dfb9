package dev.toolgate.access;

import java.util.Locale;

/** What a principal may do. */
public enum Role {
    /** Submits operations, reads its tenant's operations, resumes them. */
    AGENT,
    /** Grants and revokes approvals of operations that need a person's consent. */
    APPROVER,
    /** Runs reconciliation, resolves escalations, reads everything of its tenant. */
    OPERATOR,
    /** Reads, nothing else. */
    AUDITOR,
    /** Manages principals and their tokens. */
    ADMIN;

    public String dbName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Role fromDb(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
