package dev.toolgate.search;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;

/**
 * Keyset pagination: the next page starts strictly after the last row's instant and key, fast on any page and stable
 * while rows are added. Travels in URLs as an opaque token.
 */
public record Cursor(Instant at, String key) {

    private static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    /** PostgreSQL's timestamptz stops at 294276 and refuses the query; no operation was captured before 1970. */
    public static boolean representable(Instant at) {
        return !at.isBefore(EARLIEST) && !at.isAfter(LATEST);
    }

    public String token() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((at + "|" + key).getBytes(StandardCharsets.UTF_8));
    }

    public static Optional<Cursor> parse(String token) {
        if (token == null || token.isBlank() || token.length() > 1024) {
            return Optional.empty();
        }
        try {
            String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int bar = text.indexOf('|');
            if (bar < 0) {
                return Optional.empty();
            }
            Instant at = Instant.parse(text.substring(0, bar));
            return representable(at) ? Optional.of(new Cursor(at, text.substring(bar + 1))) : Optional.empty();
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
