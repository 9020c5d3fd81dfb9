package dev.toolgate.gateway.console;

/** A request the console refuses, with the status and words it gets; nothing was changed. */
final class Refusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    final int status;

    Refusal(int status, String why) {
        super(why, null, false, false); // no stack: a refusal is an answer, not a fault
        this.status = status;
    }
}
