package dev.toolgate.process;

import java.time.Duration;

/** What the gateway tells the caller of a process, mapped to HTTP and to MCP each in one place. */
public sealed interface ProcessAnswer {

    /** {@code replayed}: finished before this call; {@code retryAfter}: when to look again, null once settled. */
    record Progressed(ProcessRecord record, boolean created, boolean replayed, Duration retryAfter) implements ProcessAnswer {
    }

    /** Another advancer (an agent, the reconcile job) is moving the process now: the record as it stands. */
    record Busy(ProcessRecord record, Duration retryAfter) implements ProcessAnswer {
    }

    record KeyReused(ProcessView process) implements ProcessAnswer {
    }

    /** A newer release's fingerprint scheme: only that release can tell a retry from another intent, so nothing was executed. */
    record FingerprintUncheckable(ProcessView process) implements ProcessAnswer {
    }
}
