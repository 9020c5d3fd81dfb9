package dev.toolgate.process;

import java.time.Duration;

/** What the gateway tells the caller of a process, mapped to HTTP and to MCP each in one place. */
public sealed interface ProcessAnswer {

    /**
     * The process as it stands after this call advanced it as far as it could go now. {@code created}: this
     * call registered it; {@code replayed}: it had finished before this call, which changed nothing.
     * {@code retryAfter}: when to look again, for a process that waits (null once settled).
     */
    record Progressed(ProcessRecord record, boolean created, boolean replayed, Duration retryAfter) implements ProcessAnswer {
    }

    /** Another advancer (an agent, the reconcile job) is moving the process now: the record as it stands. */
    record Busy(ProcessRecord record, Duration retryAfter) implements ProcessAnswer {
    }

    /** The key names a process with another type or payload; nothing was executed. */
    record KeyReused(ProcessView process) implements ProcessAnswer {
    }

    /**
     * The process's fingerprint is of a scheme this release does not know (a newer release captured it, and this one
     * runs again after a rollback): only an instance of that release can tell a retry from another intent, so nothing
     * was executed and the caller is told to call again, never that its payload changed.
     */
    record FingerprintUncheckable(ProcessView process) implements ProcessAnswer {
    }
}
