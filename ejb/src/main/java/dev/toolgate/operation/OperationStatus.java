package dev.toolgate.operation;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The states of an operation (docs/lifecycle.md); stored in lower case, as the schema's CHECK constraint spells them. */
public enum OperationStatus {
    PENDING_APPROVAL, STARTED, SUCCEEDED, FAILED_RETRYABLE, FAILED_FINAL, UNKNOWN;

    /** Every row read, answer and log line names a status: spelled once, not lower-cased each time. */
    private static final Map<String, OperationStatus> BY_DB_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(OperationStatus::dbName, status -> status));
    private final String dbName = name().toLowerCase(Locale.ROOT);

    /** Terminal rows never change again, so they can be replayed without a row lock. */
    public boolean isTerminal() {
        return this == SUCCEEDED || this == FAILED_FINAL;
    }

    public String dbName() {
        return dbName;
    }

    public static OperationStatus fromDb(String value) {
        OperationStatus status = BY_DB_NAME.get(value);
        return status != null ? status : valueOf(value.toUpperCase(Locale.ROOT)); // another spelling, or a refusal as before
    }
}
