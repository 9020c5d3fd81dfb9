package dev.toolgate.canonical;

import jakarta.ejb.ApplicationException;

/**
 * A command refused before anything is stored or sent; thrown to end the request at once. An application exception,
 * so it crosses the EJB boundary unwrapped.
 */
@ApplicationException
public class InvalidCommand extends RuntimeException {

    public enum Reason { MALFORMED_JSON, INVALID_REQUEST, UNKNOWN_OPERATION, UNKNOWN_PROCESS, UNKNOWN_TARGET, INVALID_PAYLOAD, CARD_NUMBER, NOT_I_JSON }

    private final Reason reason;
    private final String field;

    public InvalidCommand(Reason reason, String field, String detail) {
        super(detail, null, false, false); // an answer to the caller, not a bug: no stack trace
        this.reason = reason;
        this.field = field;
    }

    public InvalidCommand(Reason reason, String detail) {
        this(reason, null, detail);
    }

    public static InvalidCommand payload(String field, String detail) {
        return new InvalidCommand(Reason.INVALID_PAYLOAD, field, field + ": " + detail);
    }

    public Reason reason() {
        return reason;
    }

    public String field() {
        return field;
    }
}
