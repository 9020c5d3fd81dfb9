package dev.toolgate.gateway.edge;

import static dev.toolgate.gateway.edge.ProblemType.IDEMPOTENCY_KEY_INVALID;
import static dev.toolgate.gateway.edge.ProblemType.IDEMPOTENCY_KEY_MISSING;

import dev.toolgate.process.ProcessDriver;

import java.util.List;

/** {@code Idempotency-Key} as the IETF draft sends it (an RFC 8941 sf-string) or as a bare token, as most clients do. */
public final class IdempotencyKeyHeader {

    public static final String NAME = "Idempotency-Key";
    static final int MAX_LENGTH = Inputs.MAX_KEY;

    private IdempotencyKeyHeader() {
    }

    public static String parse(List<String> values) {
        if (values == null || values.isEmpty()) {
            throw new ProblemException(IDEMPOTENCY_KEY_MISSING, "send one Idempotency-Key header naming the business intent");
        }
        if (values.size() > 1) {
            throw new ProblemException(IDEMPOTENCY_KEY_INVALID, "send exactly one Idempotency-Key header");
        }
        String raw = values.get(0).strip();
        return check(raw.startsWith("\"") ? unquote(raw) : bare(raw));
    }

    public static String check(String key) {
        try {
            return Inputs.key("the key", key);
        } catch (InputRefused e) {
            throw new ProblemException(e.kind() == InputRefused.Kind.CARD_NUMBER ? ProblemType.CARD_NUMBER_REJECTED : IDEMPOTENCY_KEY_INVALID,
                    e.getMessage());
        }
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

    /** At most {@link ProcessDriver#MAX_KEY_LENGTH}: each step's key is it plus the step's name, within an operation key's 255. */
    public static String processKey(String key) {
        if (key.length() > ProcessDriver.MAX_KEY_LENGTH) {
            throw new ProblemException(IDEMPOTENCY_KEY_INVALID, "a process key is at most " + ProcessDriver.MAX_KEY_LENGTH
                    + " characters: each step's key is the process key, '/' and the step's name");
        }
        return key;
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
