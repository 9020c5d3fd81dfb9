package dev.toolgate.gateway.rest;

/** A request refused at the HTTP edge, before the gateway is asked. */
class ProblemException extends RuntimeException {

    private final ProblemType type;

    ProblemException(ProblemType type, String detail) {
        super(detail, null, false, false);
        this.type = type;
    }

    ProblemType type() {
        return type;
    }
}
