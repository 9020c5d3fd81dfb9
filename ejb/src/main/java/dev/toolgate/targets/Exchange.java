package dev.toolgate.targets;

import java.time.Duration;

public sealed interface Exchange {

    /** Nothing sent is safe to send again; sent and unanswered may have taken effect. Null when answered: the adapter reads it. */
    static Outcome unanswered(Exchange exchange) {
        if (exchange instanceof NotSent notSent) {
            return new Outcome.Transient(notSent.errorCode(), null, null);
        }
        return exchange instanceof Lost lost ? new Outcome.Unknown(lost.errorCode(), null) : null;
    }

    record Answered(int status, String body, Duration retryAfter) implements Exchange {
    }

    /** The connection was never established, so the request provably never left. */
    record NotSent(String errorCode) implements Exchange {
    }

    /** The request was (or may have been) sent, and no response arrived: the effect may exist. */
    record Lost(String errorCode) implements Exchange {
    }
}
