package dev.toolgate.journal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;

/**
 * Where a page of a list ended: the sort instant and key of its last row, so the next page starts
 * strictly after it (keyset pagination — as fast on page 1,000 as on page 1, and stable while rows are
 * added). Travels in URLs as an opaque token; a token that does not decode is no cursor.
 */
public record Cursor(Instant at, String key) {

    public String token() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((at + "|" + key).getBytes(StandardCharsets.UTF_8));
    }

    /** The cursor a token names; empty for null, blank or anything this class did not write. */
    public static Optional<Cursor> parse(String token) {
        if (token == null || token.isBlank() || token.length() > 1024) {
            return Optional.empty();
        }
        try {
            String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int bar = text.indexOf('|');
            return bar < 0 ? Optional.empty() : Optional.of(new Cursor(Instant.parse(text.substring(0, bar)), text.substring(bar + 1)));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
