package dev.toolgate.access;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

public enum Role {
    /** Submits operations, reads its tenant's operations, resumes them. */
    AGENT,
    /** Grants and revokes approvals of operations that need a person's consent. */
    APPROVER,
    /** Runs reconciliation, resolves escalations, reads everything of its tenant. */
    OPERATOR,
    AUDITOR,
    /** Manages principals and their tokens. */
    ADMIN;

    public String dbName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Role> known(String name) {
        return Arrays.stream(values()).filter(role -> role.dbName().equals(name.strip().toLowerCase(Locale.ROOT))).findFirst();
    }
}
