package dev.toolgate.gateway.edge;

import dev.toolgate.canonical.CardNumbers;
import dev.toolgate.gateway.edge.InputRefused.Kind;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The rules every value from outside passes, whichever door it came through, before it is used, logged, traced,
 * stored or sent. Each refuses with {@link InputRefused}, naming where the value was, never quoting it.
 */
public final class Inputs {

    /** Twice the longest text any door takes (2,000): longer is no request of ours, refused before anything reads it. */
    public static final int MAX_VALUE = 4096;
    /** PostgreSQL's timestamptz holds far more, but the journal's and the targets' dates are four-digit years. */
    static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    public enum Text {
        /** One line: a key, an id, a path, a query or header value, a form's short field. */
        LINE,
        /** What a person writes: a note, a reason, evidence — lines and tabs allowed. */
        PROSE
    }

    private Inputs() {
    }

    /** {@code value} as it came, or a refusal; null passes (each caller says whether it is required). */
    public static String text(String where, String value, Text layout, int max) {
        if (characters(where, value, layout, max) != null && CardNumbers.contains(value)) {
            throw new InputRefused(Kind.CARD_NUMBER, where, "carries what looks like a payment card number");
        }
        return value;
    }

    /** The text rules without the card check: for what is passed on to nobody (a header no door reads). */
    public static String characters(String where, String value, Text layout, int max) {
        if (value == null) {
            return null;
        }
        if (value.length() > max) {
            throw new InputRefused(Kind.INVALID, where, "is at most " + max + " characters");
        }
        String flaw = flaw(value, layout);
        if (flaw != null) {
            throw new InputRefused(Kind.INVALID, where, flaw);
        }
        return value;
    }

    static String flaw(String value, Text layout) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                if (layout == Text.PROSE && (c == '\t' || c == '\n' || c == '\r')) {
                    continue;
                }
                return "holds a control character (U+" + String.format("%04X", (int) c) + ")";
            }
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
                int code = value.codePointAt(i - 1);
                if ((code & 0xFFFE) == 0xFFFE) {
                    return "holds a noncharacter";
                }
                continue;
            }
            if (Character.isSurrogate(c)) {
                return "holds a lone surrogate: it is not Unicode text";
            }
            if ((c & 0xFFFE) == 0xFFFE || (c >= 0xFDD0 && c <= 0xFDEF)) {
                return "holds a noncharacter";
            }
        }
        return null;
    }

    public static final int MAX_KEY = 255;

    /** 1-255 visible ASCII characters; keys are stored, logged and traced, so never a card number. */
    public static String key(String where, String key) {
        if (key == null || key.isEmpty() || key.length() > MAX_KEY) {
            throw new InputRefused(Kind.INVALID, where, "is an idempotency key of 1 to " + MAX_KEY + " characters");
        }
        if (!key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw new InputRefused(Kind.INVALID, where,
                    "may hold visible ASCII characters only: no whitespace, control or non-ASCII characters");
        }
        if (CardNumbers.contains(key)) {
            throw new InputRefused(Kind.CARD_NUMBER, where, "carries what looks like a payment card number");
        }
        return key;
    }

    public static Instant instant(String where, String value) {
        if (value == null) {
            return null;
        }
        text(where, value, Text.LINE, 64);
        Instant at;
        try {
            at = OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw new InputRefused(Kind.INVALID, where, "is an RFC 3339 date-time with an offset (2026-12-01T09:30:00Z)");
        }
        if (at.isBefore(EARLIEST) || at.isAfter(LATEST)) {
            throw new InputRefused(Kind.INVALID, where, "is a date-time in the years 0001 to 9999");
        }
        return at;
    }

    public static Long whole(String where, String value, long min, long max) {
        if (value == null) {
            return null;
        }
        if (!value.matches("[0-9]{1,18}")) {
            throw new InputRefused(Kind.INVALID, where, "is a whole number from " + min + " to " + max);
        }
        long n = Long.parseLong(value);
        if (n < min || n > max) {
            throw new InputRefused(Kind.INVALID, where, "is a whole number from " + min + " to " + max);
        }
        return n;
    }
}
