package dev.toolgate.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/** A page's cursor survives its trip through a URL exactly; anything this class did not write is no cursor. */
class CursorTest {

    private static final Instant AT = Instant.parse("2026-12-01T12:00:00Z");

    @Test
    void readsBackTheCursorItsTokenNames() {
        Cursor cursor = new Cursor(AT, "test:invoice.create:42:v1");
        assertEquals(Optional.of(cursor), Cursor.parse(cursor.token()));
    }

    @Test
    void keepsMicrosecondsAndNanoseconds() {
        // PostgreSQL's timestamptz holds microseconds: a cursor rounded to milliseconds would skip or repeat rows
        Cursor micros = new Cursor(Instant.parse("2026-12-01T12:00:00.123456Z"), "k");
        Cursor nanos = new Cursor(Instant.parse("2026-12-01T12:00:00.000000001Z"), "k");
        assertEquals(micros, Cursor.parse(micros.token()).orElseThrow());
        assertEquals(nanos, Cursor.parse(nanos.token()).orElseThrow());
    }

    @Test
    void keepsAKeyThatHoldsTheSeparator() {
        Cursor cursor = new Cursor(AT, "a|b||c|");
        assertEquals(cursor, Cursor.parse(cursor.token()).orElseThrow());
    }

    @Test
    void keepsAKeyOfAnyCharacters() {
        Cursor cursor = new Cursor(AT, "счёт-№1/€/\uD83D\uDE00 & ?=#");
        assertEquals(cursor, Cursor.parse(cursor.token()).orElseThrow());
    }

    @Test
    void keepsTheLongestKeyTheJournalHolds() {
        // keys are at most 255 visible ASCII characters (V1's CHECK): their token stays far below the length limit
        Cursor cursor = new Cursor(Instant.parse("2026-12-01T12:00:00.123456789Z"), "~".repeat(255));
        assertTrue(cursor.token().length() < 1024, cursor.token().length() + " characters");
        assertEquals(cursor, Cursor.parse(cursor.token()).orElseThrow());
    }

    @Test
    void travelsInAUrlWithoutEscaping() {
        String token = new Cursor(AT, "a|b?c=d&e/f+g").token();
        assertTrue(token.matches("[A-Za-z0-9_-]+"), token);
    }

    @Test
    void isNoCursorWithoutAToken() {
        assertEquals(Optional.empty(), Cursor.parse(null));
        assertEquals(Optional.empty(), Cursor.parse(""));
        assertEquals(Optional.empty(), Cursor.parse("   "));
    }

    @Test
    void isNoCursorForATokenThatIsNotBase64() {
        assertEquals(Optional.empty(), Cursor.parse("not a token!"));
        assertEquals(Optional.empty(), Cursor.parse("%%%%"));
        assertEquals(Optional.empty(), Cursor.parse("YWJj\nZGVm"));
        assertEquals(Optional.empty(), Cursor.parse("MjAy+/Mt"), "the standard alphabet's + and / are not the URL alphabet");
    }

    @Test
    void isNoCursorForTextThisClassDidNotWrite() {
        assertEquals(Optional.empty(), Cursor.parse(encode("no separator at all")));
        assertEquals(Optional.empty(), Cursor.parse(encode("yesterday|k")));
        assertEquals(Optional.empty(), Cursor.parse(encode("|k")));
        assertEquals(Optional.empty(), Cursor.parse(encode("2026-12-01 12:00:00|k")), "not ISO-8601");
        assertEquals(Optional.empty(), Cursor.parse(Base64.getUrlEncoder().encodeToString(new byte[] {(byte) 0xff, (byte) 0xfe, 0x00})));
    }

    @Test
    void isNoCursorForAnOverlongToken() {
        String overlong = encode(AT + "|" + "k".repeat(1024));
        assertTrue(overlong.length() > 1024);
        assertEquals(Optional.empty(), Cursor.parse(overlong));
        assertEquals(Optional.empty(), Cursor.parse("A".repeat(1025)));
    }

    private static String encode(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void namesNoInstantTheJournalCannotBeAskedAbout() {
        // Java's instants reach far past PostgreSQL's timestamptz, which refuses the query with an error
        String far = java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString("+300000-01-01T00:00:00Z|k".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(Cursor.parse(far).isEmpty());
        assertFalse(Cursor.representable(java.time.Instant.parse("1969-12-31T23:59:59Z")));
        assertTrue(Cursor.representable(java.time.Instant.parse("1970-01-01T00:00:00Z")));
        assertTrue(Cursor.representable(java.time.Instant.parse("9999-12-31T23:59:59Z")));
        assertFalse(Cursor.representable(java.time.Instant.parse("+10000-01-01T00:00:00Z")));
    }
}
