package dev.toolgate.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CardNumbersTest {

    @Test
    void findsCardNumbersWrittenAnyWay() {
        assertTrue(CardNumbers.contains("4111111111111111"));
        assertTrue(CardNumbers.contains("card 4111 1111 1111 1111 please"));
        assertTrue(CardNumbers.contains("5500-0000-0000-0004"));
        assertTrue(CardNumbers.contains("378282246310005")); // 15-digit Amex
    }

    @Test
    void leavesOrdinaryNumbersAlone() {
        assertFalse(CardNumbers.contains("4111111111111112"), "fails Luhn");
        assertFalse(CardNumbers.contains("order-48291"));
        assertFalse(CardNumbers.contains("770708389312"), "a 12-digit INN is too short");
        assertFalse(CardNumbers.contains("5f1c0a3e-0643-4f00-8000-000000000643"));
        assertTrue(CardNumbers.contains("3782 822463 10005"), "Amex as printed: 4-6-5");
    }

    @Test
    void neverTakesAUuidKeyForACardNumber() {
        // the worst case for a digits-with-separators rule: every hex digit of the UUID a decimal digit
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 100_000; i++) {
            StringBuilder digits = new StringBuilder();
            for (int d = 0; d < 32; d++) {
                digits.append((char) ('0' + random.nextInt(10)));
            }
            String uuid = digits.substring(0, 8) + "-" + digits.substring(8, 12) + "-" + digits.substring(12, 16) + "-"
                    + digits.substring(16, 20) + "-" + digits.substring(20);
            assertFalse(CardNumbers.contains("test:invoice.create:" + uuid + ":v1"), uuid);
        }
    }

    @Test
    void refusesARequestCarryingOneAndNamesOnlyTheField() {
        InvalidCommand e = assertThrows(InvalidCommand.class, () -> CommandParser.parse(
                "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"4111111111111111\"}}"));
        assertEquals(InvalidCommand.Reason.CARD_NUMBER, e.reason());
        assertEquals("payload.order_id", e.field());
        assertFalse(e.getMessage().contains("4111"), e.getMessage());
    }

    @Test
    void refusesNestingDeeperThanTheLimit() {
        String deep = "{\"payload\":" + "[".repeat(40) + "]".repeat(40) + "}";
        assertEquals(InvalidCommand.Reason.INVALID_REQUEST, assertThrows(InvalidCommand.class, () -> CommandParser.parse(deep)).reason());
        String bracketsInStrings = "{\"operation\":\"" + "[".repeat(40) + "\",\"target\":\"1c\",\"payload\":{}}";
        assertEquals("[".repeat(40), CommandParser.parse(bracketsInStrings).operation(), "brackets inside strings do not nest");
        assertNull(CardNumbers.find("", jakarta.json.Json.createObjectBuilder().add("a", 1).build()));
    }

    @Test
    void findsACardNumberWithAFewHexLettersGluedOn() {
        for (String glued : java.util.List.of("cc4111111111111111", "4111111111111111abc", "prod:ab4111111111111111",
                "t:pay:4111111111111111abcd:v1", "4111111111111111abcd", "abcd4111111111111111", "deadbeef4111111111111111cafe",
                "4111111111111111abcdef0123456", "0a4111111111111111b2c3d4e5f60")) {
            org.junit.jupiter.api.Assertions.assertTrue(CardNumbers.contains(glued), glued);
        }
        org.junit.jupiter.api.Assertions.assertFalse(CardNumbers.contains("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
                "a SHA-256 is an id");
    }

    @Test
    void aTextWithTooFewDigitsForACardIsAnsweredWithoutTheSearchAndAsTheSearchWould() {
        // the short cut may only say "no card" where the whole search says so too: random ASCII and Cyrillic
        // texts around the 13-digit edge, with separators, letters and Luhn-passing runs among them
        String alphabet = "0123456789 -./,:абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЁЯabcxyzXYZ\"'{}()" + CardNumbers.PLAIN_PUNCTUATION;
        java.util.Random random = new java.util.Random(42);
        int shortCut = 0;
        for (int i = 0; i < 50_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(40);
            for (int c = 0; c < length; c++) {
                text.append(random.nextInt(3) == 0 ? alphabet.charAt(random.nextInt(10)) : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            if (random.nextInt(4) == 0) {
                text.insert(random.nextInt(text.length() + 1), "4111 1111 1111 1111".substring(0, 10 + random.nextInt(10)));
            }
            String t = text.toString();
            if (CardNumbers.tooFewDigits(t)) {
                shortCut++;
                assertFalse(CardNumbers.search(t), t);
            }
            assertEquals(CardNumbers.search(t), CardNumbers.contains(t), t);
        }
        assertTrue(shortCut > 10_000, "the short cut was taken " + shortCut + " times");
    }

    @Test
    void theShortCutCountsOnlyTextsWhoseDigitsNeedNoNormalizing() {
        assertTrue(CardNumbers.tooFewDigits("Оплата по счёту № 48291 от 01.12.26 — «срочно»"));
        assertTrue(CardNumbers.tooFewDigits("Оплата по счёту № 48291 от 01.12.2026"), "13 digits in all, parted by words");
        assertFalse(CardNumbers.tooFewDigits("Оплата по счёту № 4829 1012 2026 1"), "13 digits in groups: the search decides");
        assertTrue(CardNumbers.tooFewDigits("order-48291"));
        assertTrue(CardNumbers.tooFewDigits("bench:invoice.create:20261206r-123456:v1"), "a letter parts the groups");
        assertTrue(CardNumbers.tooFewDigits("2026-12-06T10:00:00.123456Z"), "8 and 12 digits, parted by a letter");
        assertTrue(CardNumbers.tooFewDigits("4111 1111     1111 1"), "a gap of five parts the groups");
        assertFalse(CardNumbers.tooFewDigits("4111 1111    1111 1"), "a gap of four does not");
        assertFalse(CardNumbers.tooFewDigits("4111111111111"), "13 digits: the search decides");
        // fullwidth, superscript and Arabic-Indic digits, circled numbers, a soft hyphen: normalized first, so searched
        assertFalse(CardNumbers.tooFewDigits("４１１１"));
        assertFalse(CardNumbers.tooFewDigits("¹²"));
        assertFalse(CardNumbers.tooFewDigits("٤١١١"));
        assertFalse(CardNumbers.tooFewDigits("⑪"));
        assertFalse(CardNumbers.tooFewDigits("41\u00ad11"));
        assertFalse(CardNumbers.tooFewDigits("4\u200b1"), "a zero-width space is a format character");
        assertTrue(CardNumbers.contains("４１１１ １１１１ １１１１ １１１１"), "still found by the search");
    }

    @Test
    void leavesAHexIdOf32CharactersOrMoreAloneWhateverRunOfDigitsItHolds() {
        // a request's fingerprint (SHA-256) and a W3C trace id come back to the gateway: an approval's request_hash, a
        // submit's trace_id, the console's search; one with a Luhn-passing run must not be refused as a card
        for (String id : java.util.List.of("9f86d081884c7d654111111111111111a2feaa0c55ad015a3bf4f1b2b0b822cd",
                "0af7651916cd43dd4111111111111111", "09135fb3c6b480f5996460523810308a2", "da39a3ee5e6b4b0d4111111111111111afbf0709")) {
            assertFalse(CardNumbers.contains(id), id);
        }
    }

    /**
     * The price of finding a card glued into a hex word of 20–31 characters: one whose own run of 13–19 decimal digits
     * passes Luhn is refused (a 24-hex object id at times); digests and trace ids, 32 characters or more, never are.
     * Counted on a fixed-seed sample (a count, not a timing); {@code -Dcardnumbers.sample=1000000} measures the figure
     * docs/input.md gives.
     */
    @Test
    void refusesFewRandomUuidsAndHexDigests() {
        int sample = Integer.getInteger("cardnumbers.sample", 100_000);
        java.util.Random random = new java.util.Random(2026);
        int uuids = 0;
        int digests = 0;
        int objectIds = 0;
        for (int i = 0; i < sample; i++) {
            java.util.UUID uuid = new java.util.UUID(random.nextLong() & ~0xF000L | 0x4000L, random.nextLong() & ~(3L << 62) | (2L << 62)); // v4
            uuids += CardNumbers.contains(uuid.toString()) ? 1 : 0;
            byte[] digest = new byte[32];
            random.nextBytes(digest);
            digests += CardNumbers.contains(java.util.HexFormat.of().formatHex(digest)) ? 1 : 0;
            byte[] objectId = new byte[12];
            random.nextBytes(objectId);
            objectIds += CardNumbers.contains(java.util.HexFormat.of().formatHex(objectId)) ? 1 : 0;
        }
        System.out.printf("card numbers: %d of %d random UUIDs, %d of %d random 64-hex digests, %d of %d random 24-hex ids refused%n",
                uuids, sample, digests, sample, objectIds, sample);
        assertEquals(0, uuids, "a UUID is set aside whole");
        assertEquals(0, digests, "a hex id of 32 characters or more is set aside whole");
        assertTrue(objectIds <= sample / 500, objectIds + " of " + sample + " 24-hex ids: more than 0.2 %");
    }
}
