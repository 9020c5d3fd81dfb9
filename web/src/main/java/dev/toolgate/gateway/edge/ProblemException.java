package dev.toolgate.gateway.edge;

import java.time.Duration;

/** A request refused at the HTTP edge, before the gateway is asked; each door answers it in its own form. */
public class ProblemException extends RuntimeException {

    private final ProblemType type;
    private Duration retryAfter;

    public ProblemException(ProblemType type, String detail) {
        super(detail, null, false, false);
        this.type = type;
    }

    public ProblemException retryAfter(Duration wait) {
        this.retryAfter = wait;
        return this;
    }

    public ProblemType type() {
        return type;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
