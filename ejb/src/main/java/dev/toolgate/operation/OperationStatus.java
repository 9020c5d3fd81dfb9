package dev.toolgate.operation;

import java.util.Locale;

/** The states of an operation (docs/lifecycle.md); stored in lower case, as the schema's CHECK constraint spells them. */
public enum OperationStatus {
    PENDING_APPROVAL, STARTED, SUCCEEDED, FAILED_RETRYABLE, FAILED_FINAL, UNKNOWN;

    /** Terminal rows never change again, so they can be replayed without a row lock. */
    public boolean isTerminal() {
        return this == SUCCEEDED || this == FAILED_FINAL;
    }

    public String dbName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static OperationStatus fromDb(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
