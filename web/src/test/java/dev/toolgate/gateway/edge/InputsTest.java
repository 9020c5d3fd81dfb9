package dev.toolgate.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.toolgate.gateway.edge.Inputs.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;

/** The edge's rules, one hostile class a row: what each refuses, and that ordinary values pass as they are. */
class InputsTest {

    @ParameterizedTest
    @ValueSource(strings = {"a\u0000b", "a\u0001b", "a\u001fb", "a\u007fb", "a\u0085b", "a\u009fb", "a\nb", "a\tb", "a\rb"})
    void refusesControlCharactersInALine(String value) {
        InputRefused refused = assertThrows(InputRefused.class, () -> Inputs.text("query parameter 'key'", value, Text.LINE, 100));
        assertEquals(400, refused.status());
        assertEquals("query parameter 'key'", refused.where());
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0000b", "a\u0007b", "a\u007fb", "a\u0085b"})
    void refusesControlCharactersInProseButLineBreaksAndTabs(String value) {
        assertThrows(InputRefused.class, () -> Inputs.text("note", value, Text.PROSE, 100));
    }

    @Test
    void takesLineBreaksAndTabsInProse() {
        assertEquals("called the CFO\r\n\tshe agreed", Inputs.text("note", "called the CFO\r\n\tshe agreed", Text.PROSE, 100));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\ud800b", "a\udc00", "\ud800", "a\ufffeb", "a\uffff", "a\ufdd0b", "a\udbff\udfffb"})
    void refusesLoneSurrogatesAndNoncharacters(String value) {
        assertEquals(400, assertThrows(InputRefused.class, () -> Inputs.text("note", value, Text.PROSE, 100)).status());
    }

    @Test
    void takesTextOfEveryScriptAndAPairedSurrogate() {
        String text = "Счёт № 17 — 𝄞 émoji 😀 中文";
        assertEquals(text, Inputs.text("note", text, Text.PROSE, 100));
    }

    @Test
    void refusesTextOverItsLength() {
        assertEquals(400, assertThrows(InputRefused.class, () -> Inputs.text("note", "x".repeat(501), Text.PROSE, 500)).status());
        assertEquals(500, Inputs.text("note", "x".repeat(500), Text.PROSE, 500).length());
    }

    @ParameterizedTest
    @ValueSource(strings = {"4111111111111111", "t:pay:4111111111111111:v1", "card 4111 1111 1111 1111 please", "4111-1111-1111-1111"})
    void refusesCardNumbersAs422WithoutQuotingThem(String value) {
        InputRefused refused = assertThrows(InputRefused.class, () -> Inputs.text("reason", value, Text.PROSE, 100));
        assertEquals(InputRefused.Kind.CARD_NUMBER, refused.kind());
        assertEquals(422, refused.status());
        assertEquals(-1, refused.getMessage().indexOf("1111"));
    }

    @Test
    void theCharacterRulesAloneLeaveDigitsForWhatNobodyReads() {
        assertEquals("4111111111111111", Inputs.characters("header X-Request-Id", "4111111111111111", Text.LINE, 100));
        assertThrows(InputRefused.class, () -> Inputs.characters("header X-Request-Id", "a\u0000", Text.LINE, 100));
    }

    @Test
    void aNullIsLeftToTheCallerToRequire() {
        assertEquals(null, Inputs.text("note", null, Text.PROSE, 10));
        assertEquals(null, Inputs.instant("before", null));
        assertEquals(null, Inputs.whole("limit", null, 1, 10));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "a b", "ключ", "k\u0000", "t:pay:4111111111111111:v1"})
    void refusesKeysThatCouldNeverHaveBeenTaken(String key) {
        assertThrows(InputRefused.class, () -> Inputs.key("the key", key));
    }

    @Test
    void takesKeysOfVisibleAscii() {
        assertEquals("prod:invoice.create:order-48291:v1", Inputs.key("the key", "prod:invoice.create:order-48291:v1"));
        assertEquals("p/x\\y", Inputs.key("the key", "p/x\\y"));
        assertThrows(InputRefused.class, () -> Inputs.key("the key", "k".repeat(256)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"+999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z", "+10000-01-01T00:00:00Z", "0000-12-31T23:59:59Z",
            "2026-12-01", "2026-12-01T09:30:00", "yesterday", "2026-13-01T00:00:00Z"})
    void refusesInstantsOutsideTheCalendarOrWithoutAnOffset(String value) {
        assertEquals(400, assertThrows(InputRefused.class, () -> Inputs.instant("before", value)).status());
    }

    @Test
    void takesInstantsWithAnyOffset() {
        assertEquals(Instant.parse("2026-12-01T06:30:00Z"), Inputs.instant("before", "2026-12-01T09:30:00+03:00"));
        assertEquals(Instant.parse("0001-01-01T00:00:00Z"), Inputs.instant("before", "0001-01-01T00:00:00Z"));
        assertEquals(Instant.parse("9999-12-31T23:59:59Z"), Inputs.instant("before", "9999-12-31T23:59:59Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "201", "-1", "+5", "1.0", "1e2", "99999999999999999999", "٣", ""})
    void refusesWholeNumbersOutOfRangeOrNotInAsciiDigits(String value) {
        assertThrows(InputRefused.class, () -> Inputs.whole("limit", value, 1, 200));
    }

    @Test
    void takesWholeNumbersInRange() {
        assertEquals(200L, Inputs.whole("limit", "200", 1, 200));
    }
}
