package dev.toolgate.gateway.rest;

import static dev.toolgate.gateway.rest.ProblemType.IDEMPOTENCY_KEY_INVALID;
import static dev.toolgate.gateway.rest.ProblemType.IDEMPOTENCY_KEY_MISSING;

import dev.toolgate.canonical.CardNumbers;

import java.util.List;

/**
 * Reads {@code Idempotency-Key} as the IETF draft sends it (an RFC 8941 sf-string,
 * {@code "prod:invoice.create:order-48291:v1"}) or as a bare token, as most clients do.
 * A key is 1–255 visible ASCII characters: no whitespace, no control characters.
 */
public final class IdempotencyKeyHeader {

    static final String NAME = "Idempotency-Key";
    static final int MAX_LENGTH = 255;

    private IdempotencyKeyHeader() {
    }

    static String parse(List<String> values) {
        if (values == null || values.isEmpty()) {
            throw new ProblemException(IDEMPOTENCY_KEY_MISSING, "send one Idempotency-Key header naming the business intent");
        }
        if (values.size() > 1) {
            throw new ProblemException(IDEMPOTENCY_KEY_INVALID, "send exactly one Idempotency-Key header");
        }
        String raw = values.get(0).strip();
        return check(raw.startsWith("\"") ? unquote(raw) : bare(raw));
    }

    /** The rule for a key however it arrived (a header here, a tool argument at the MCP front door). */
    public static String check(String key) {
        if (key.isEmpty() || key.length() > MAX_LENGTH) {
            throw new ProblemException(IDEMPOTENCY_KEY_INVALID, "the key must be 1 to " + MAX_LENGTH + " characters");
        }
        if (!key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw new ProblemException(IDEMPOTENCY_KEY_INVALID,
                    "the key may hold visible ASCII characters only: no whitespace, control or non-ASCII characters");
        }
        if (CardNumbers.contains(key)) { // keys are stored and logged: they must never carry card data
            throw new ProblemException(ProblemType.CARD_NUMBER_REJECTED, "the key carries what looks like a payment card number");
        }
        return key;
    }

    /** Whether {@link #check} would take it: a key that may be echoed back in an answer. */
    public static boolean isWellFormed(String key) {
        try {
            check(key);
            return true;
        } catch (ProblemException e) {
            return false;
        }
    }

    private static String bare(String raw) {
        if (raw.indexOf('"') >= 0 || raw.indexOf(',') >= 0) { // a comma is how two header values fold into one line
            throw new ProblemException(IDEMPOTENCY_KEY_INVALID, "a bare key may not contain '\"' or ','; quote it as an sf-string");
        }
        return raw;
    }

    /** RFC 8941 §3.3.3: inside quotes, only \" and \\ are escapes. */
    private static String unquote(String raw) {
        if (raw.length() < 2 || !raw.endsWith("\"")) {
            throw new ProblemException(IDEMPOTENCY_KEY_INVALID, "an unterminated quoted key");
        }
        StringBuilder key = new StringBuilder(raw.length());
        for (int i = 1; i < raw.length() - 1; i++) {
            char c = raw.charAt(i);
            if (c == '\\') {
                char next = ++i < raw.length() - 1 ? raw.charAt(i) : 0;
                if (next != '"' && next != '\\') {
                    throw new ProblemException(IDEMPOTENCY_KEY_INVALID, "a quoted key may escape only '\"' and '\\'");
                }
                key.append(next);
            } else if (c == '"') {
                throw new ProblemException(IDEMPOTENCY_KEY_INVALID, "a quoted key must escape '\"'");
            } else {
                key.append(c);
            }
        }
        return key.toString();
    }
}
