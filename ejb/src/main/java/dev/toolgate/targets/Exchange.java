package dev.toolgate.targets;

import java.time.Duration;

/** What became of one HTTP request to a target, before any system-specific reading of it. */
public sealed interface Exchange {

    /**
     * The outcome when no response arrived, the same for every target: nothing sent is safe to send
     * again; sent and unanswered may have taken effect. Null for an answered exchange: only the
     * target's adapter can read its answer.
     */
    static Outcome unanswered(Exchange exchange) {
        if (exchange instanceof NotSent notSent) {
            return new Outcome.Transient(notSent.errorCode(), null, null);
        }
        return exchange instanceof Lost lost ? new Outcome.Unknown(lost.errorCode(), null) : null;
    }

    /** A response arrived; {@code retryAfter} is its Retry-After header in seconds, or null. */
    record Answered(int status, String body, Duration retryAfter) implements Exchange {
    }

    /** The connection was never established, so the request provably never left. */
    record NotSent(String errorCode) implements Exchange {
    }

    /** The request was (or may have been) sent, and no response arrived: the effect may exist. */
    record Lost(String errorCode) implements Exchange {
    }
}
