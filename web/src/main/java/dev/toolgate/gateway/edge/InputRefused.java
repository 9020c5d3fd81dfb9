package dev.toolgate.gateway.edge;

/**
 * A value from outside that no door takes: {@code where} names it and the message says what is wrong, never quoting
 * the value. Each door maps it to its own answer in one place.
 */
public final class InputRefused extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public enum Kind {
        /** Control characters, lone surrogates, a length, a number or an instant out of range: 400. */
        INVALID,
        /** What looks like a payment card number: 422, never stored, logged or traced. */
        CARD_NUMBER
    }

    private final Kind kind;
    private final String where;

    public InputRefused(Kind kind, String where, String detail) {
        super(where + " " + detail, null, false, false); // no stack: a refusal is an answer, not a fault
        this.kind = kind;
        this.where = where;
    }

    public Kind kind() {
        return kind;
    }

    public String where() {
        return where;
    }

    public int status() {
        return kind == Kind.CARD_NUMBER ? 422 : 400;
    }
}
