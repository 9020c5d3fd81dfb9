package dev.toolgate.gateway;

import dev.toolgate.operation.OperationView;

import java.time.Duration;

/**
 * What the gateway tells the agent, decided in one place ({@link AgentAnswers}) and mapped to HTTP in
 * one place, in the web module. Each answer says why explicitly: nothing downstream reads error codes.
 */
public sealed interface GatewayAnswer {

    OperationView operation();

    enum Ending {
        SUCCEEDED,
        /** The target refused it (or a person resolved it as failed): sending it again would not help. */
        REFUSED,
        /** Every attempt the budget allowed provably did not execute. */
        RETRIES_EXHAUSTED,
        /** The approval was revoked or expired before an attempt could be sent: nothing was sent. */
        APPROVAL_LAPSED
    }

    /** Succeeded or failed for good; {@code replayed} when an earlier call produced the outcome. */
    record Done(OperationView operation, boolean replayed, Ending ending) implements GatewayAnswer {
    }

    /** The target refused for now and did not execute it: the same key may be sent again later. */
    record TryLater(OperationView operation, Duration retryAfter) implements GatewayAnswer {
    }

    /**
     * The effect may exist; it will be looked up by key. Retry with the same key, never a new one.
     * {@code escalated}: reconciliation gave up, and a person settles it. {@code awaitingNotice}: the target announces
     * outcomes to this gateway, and its notification starts the look-up at once.
     */
    record OutcomeUnknown(OperationView operation, Duration retryAfter, boolean escalated, boolean awaitingNotice) implements GatewayAnswer {
    }

    /** Another caller owns the current attempt. */
    record InProgress(OperationView operation, Duration retryAfter) implements GatewayAnswer {
    }

    /** The key was used before with a different payload; nothing was executed. */
    record KeyReused(OperationView operation) implements GatewayAnswer {
    }

    /** Fingerprinted under a newer release's scheme: nothing was done; an instance of that release answers the key. */
    record FingerprintUncheckable(OperationView operation) implements GatewayAnswer {
    }

    record AwaitingApproval(OperationView operation) implements GatewayAnswer {
    }
}
