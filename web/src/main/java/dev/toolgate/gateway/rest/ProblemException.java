package dev.toolgate.gateway.rest;

import java.time.Duration;

/** A request refused at the HTTP edge, before the gateway is asked. */
public class ProblemException extends RuntimeException {

    private final ProblemType type;
    private Duration retryAfter;

    ProblemException(ProblemType type, String detail) {
        super(detail, null, false, false);
        this.type = type;
    }

    ProblemException retryAfter(Duration wait) {
        this.retryAfter = wait;
        return this;
    }

    public ProblemType type() {
        return type;
    }

    Duration retryAfter() {
        return retryAfter;
    }
}
