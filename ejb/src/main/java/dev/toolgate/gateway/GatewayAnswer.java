package dev.toolgate.gateway;

import dev.toolgate.journal.OperationView;

import java.time.Duration;

/** What the gateway tells the agent; mapped to HTTP in one place, in the web module. */
public sealed interface GatewayAnswer {

    /** Succeeded or failed for good; {@code replayed} when an earlier call produced the outcome. */
    record Done(OperationView operation, boolean replayed) implements GatewayAnswer {
    }

    /** The target refused for now and did not execute it: the same key may be sent again later. */
    record TryLater(OperationView operation, Duration retryAfter) implements GatewayAnswer {
    }

    /** The effect may exist; it will be looked up by key. Retry with the same key, never a new one. */
    record OutcomeUnknown(OperationView operation, Duration retryAfter) implements GatewayAnswer {
    }

    /** Another caller owns the current attempt. */
    record InProgress(OperationView operation, Duration retryAfter) implements GatewayAnswer {
    }

    /** The key was used before with a different payload; nothing was executed. */
    record KeyReused(OperationView operation) implements GatewayAnswer {
    }

    /** The operation waits for a person's approval. */
    record AwaitingApproval(OperationView operation) implements GatewayAnswer {
    }
}
