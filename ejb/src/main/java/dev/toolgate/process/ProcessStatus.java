package dev.toolgate.process;

import java.util.Locale;

/** The states of a process (docs/processes.md); stored in lower case, as the schema's CHECK constraint spells them. */
public enum ProcessStatus {
    /** A step is being sent, looked up or retried; or the next one is about to start. */
    RUNNING,
    /** A step waits for a person's approval of exactly what it would send. */
    AWAITING_APPROVAL,
    COMPLETED,
    /** A step failed for good, and nothing before it needed compensating. */
    FAILED,
    COMPENSATING,
    COMPENSATED,
    /** A person must act: a compensation failed, an effect cannot be compensated, or a step is escalated or stuck. */
    NEEDS_ATTENTION;

    /** Finished for good: completed, failed or compensated. Its steps' records may be purged from here on. */
    public boolean finished() {
        return this == COMPLETED || this == FAILED || this == COMPENSATED;
    }

    public String dbName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ProcessStatus fromDb(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
