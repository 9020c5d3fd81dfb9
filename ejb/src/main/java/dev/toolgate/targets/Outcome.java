package dev.toolgate.targets;

import jakarta.json.JsonObject;

import java.time.Duration;

public sealed interface Outcome {

    Integer httpStatus();

    /** The journal's code for what went wrong (connection_lost, http_503, …); null when nothing did. */
    default String errorCode() {
        return null;
    }

    /** What the outcome allows next (retry, reconcile_before_retry, wait_pending, never_retry), recorded with it; null for success. */
    default String errorClass() {
        if (this instanceof Transient) {
            return "retry";
        }
        if (this instanceof Unknown) {
            return "reconcile_before_retry";
        }
        if (this instanceof Pending) {
            return "wait_pending";
        }
        return this instanceof Rejected ? "never_retry" : null;
    }

    record Succeeded(String objectId, JsonObject result, Integer httpStatus) implements Outcome {
    }

    /** The target refused; sending it again would be refused again. {@code detail} never echoes payload values. */
    record Rejected(String errorCode, String detail, Integer httpStatus) implements Outcome {
    }

    /** Provably not executed (nothing was sent, or the target says it did not run it): safe to send again. */
    record Transient(String errorCode, Duration retryAfter, Integer httpStatus) implements Outcome {
    }

    /** Accepted but unfinished (a payment's {@code pending}): wait and look again, never send anything new meanwhile. */
    record Pending(String objectId, Duration retryAfter, Integer httpStatus) implements Outcome {
    }

    /** The effect may exist: reconcile by our key before anything is sent again. */
    record Unknown(String errorCode, Integer httpStatus) implements Outcome {
    }
}
