package dev.toolgate.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/** Generated hostile and well-formed input: what is refused always is, what is valid always passes, alike. */
class HostileInputPropertiesTest {

    /** Separators a person may type between digit groups: spaces of every width, dots, slashes, dashes, invisibles. */
    private static final String SEPARATORS = " \u00a0\u2009\u202f\u3000.·/\\_-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d"
            + "\u200b\u200c\u200d\u2060\ufeff\u00ad,:;*+=~|'()[]#";
    /** The zero of each script's decimal digits: ASCII, fullwidth, Arabic-Indic, Persian, Devanagari, Bengali, Thai, Mongolian. */
    private static final int[] ZEROS = {'0', 0xFF10, 0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0x1810};

    @Property(tries = 2000)
    void cardNumbersTypedAnyWayInAnyTextAreRefused(@ForAll("cardNumbers") String digits, @ForAll Random random) {
        String typed = words(random) + " " + typed(digits, random) + " " + words(random);
        assertTrue(CardNumbers.contains(typed), typed);
        InvalidCommand e = assertThrows(InvalidCommand.class, () -> CommandParser.parse(Bodies.write(Bodies.invoice(typed), random)));
        assertEquals(InvalidCommand.Reason.CARD_NUMBER, e.reason());
        assertFalse(e.getMessage().contains(typed) || e.getMessage().contains(digits), e.getMessage());
    }

    @Property(tries = 500)
    void cardNumbersInMemberNamesAndNestedValuesAreRefused(@ForAll("cardNumbers") String digits, @ForAll Random random) {
        Map<String, Object> command = Bodies.invoice("order-1");
        String typed = typed(digits, random);
        command.put("trace_id", random.nextBoolean() ? Map.of(typed, 1) : List.of(Map.of("note", typed)));
        InvalidCommand e = assertThrows(InvalidCommand.class, () -> CommandParser.parse(Bodies.write(command, random)));
        assertEquals(InvalidCommand.Reason.CARD_NUMBER, e.reason());
        assertFalse(e.field().contains(typed), e.field());
    }

    @Property(tries = 3000)
    void uuidsAndHexIdsAreNeverTakenForCardNumbersUnlessShortAndHoldingACardLengthRun(@ForAll long high, @ForAll long low, @ForAll boolean decimalOnly,
                                                  @ForAll @IntRange(min = 20, max = 64) int hexLength, @ForAll Random random) {
        String uuid = decimalOnly ? decimalUuid(random) : new UUID(high, low).toString();
        String id = uuid;
        if (random.nextBoolean()) {
            id = id.toUpperCase(Locale.ROOT);
        }
        assertFalse(CardNumbers.contains("prod:invoice.create:" + id + ":v1"), id);
        assertFalse(CardNumbers.contains("00-" + hex(random, 32) + "-" + hex(random, 16) + "-01"));
        String hexId = hex(random, hexLength);
        if (hexLength >= 32 || !hexId.matches(".*[0-9]{13}.*")) { // a shorter one with such a run may be a card with hex letters glued on
            assertFalse(CardNumbers.contains("order " + hexId), hexId);
        }
    }

    @Property(tries = 2000)
    void hostileDocumentsAreRefusedAsInvalidCommandsOnly(@ForAll("validCommands") Map<String, Object> command,
                                                         @ForAll @IntRange(min = 0, max = 5) int damage, @ForAll Random random) {
        String body = Bodies.write(command, random);
        String hostile = switch (damage) {
            case 0 -> Bodies.write(command, random, "\"operation\":\"invoice.create\""); // a duplicate at the top
            case 1 -> Bodies.write(Map.of("operation", command.get("operation"), "target", command.get("target")), random,
                    "\"payload\":" + Bodies.write(command.get("payload"), random, "\"\\u0063urrency\":\"RUB\"")); // a duplicate inside, spelled with an escape
            case 2 -> body.replaceFirst("\\}$", ",\"trace_id\":\"x" + (char) (0xD800 + random.nextInt(0x800)) + "\"}");
            case 3 -> body.replaceFirst("\\}$", ",\"trace_id\":\"\\\\u" + Integer.toHexString(0xD800 + random.nextInt(0x800)) + "\"}");
            case 4 -> body.replaceFirst("\\}$", ",\"attempt\":" + List.of("1e400", "-1e309", "1e-400", "1e99999999999", "0." + "0".repeat(70) + "1")
                    .get(random.nextInt(5)) + "}");
            default -> body.substring(0, random.nextInt(body.length())); // truncated anywhere
        };
        InvalidCommand e = assertThrows(InvalidCommand.class, () -> Canonicalizer.canonicalize(CommandParser.parse(hostile)), hostile);
        // a truncated body is no JSON at all; every other damage is JSON that is not I-JSON
        assertEquals(damage == 5 ? InvalidCommand.Reason.MALFORMED_JSON : InvalidCommand.Reason.NOT_I_JSON, e.reason(), hostile);
    }

    @Property(tries = 2000)
    void corruptedBytesAreAcceptedOrRefusedButNeverThrowAnythingElse(@ForAll("validCommands") Map<String, Object> command,
                                                                    @ForAll Random random) {
        byte[] body = Bodies.write(command, random).getBytes(StandardCharsets.UTF_8);
        for (int i = random.nextInt(3); i >= 0; i--) {
            body[random.nextInt(body.length)] = (byte) random.nextInt(256);
        }
        try {
            Canonicalizer.canonicalize(CommandParser.parse(body));
        } catch (InvalidCommand refused) {
            // refused as the caller's error: any other exception fails the property
        }
    }

    @Property(tries = 2000)
    void validCommandsAreAcceptedWithOneFingerprintHoweverTheyAreWritten(@ForAll("validCommands") Map<String, Object> command,
                                                                         @ForAll Random random) {
        String first = Canonicalizer.canonicalize(CommandParser.parse(Bodies.write(command, random))).fingerprint();
        String again = Canonicalizer.canonicalize(CommandParser.parse(
                Bodies.write(command, random).getBytes(StandardCharsets.UTF_8))).fingerprint();
        assertEquals(first, again);
        @SuppressWarnings("unchecked")
        Map<String, Object> changed = new LinkedHashMap<>((Map<String, Object>) command.get("payload"));
        changed.put("amount_minor", ((Long) changed.get("amount_minor")) % 999_999_999L + 1_000_000_000L);
        Map<String, Object> other = new LinkedHashMap<>(command);
        other.put("payload", changed);
        assertNotEquals(first, Canonicalizer.canonicalize(CommandParser.parse(Bodies.write(other, random))).fingerprint());
    }

    @Provide
    Arbitrary<String> cardNumbers() {
        return Arbitraries.integers().between(CardNumbers.MIN_DIGITS, CardNumbers.MAX_DIGITS)
                .flatMap(length -> Arbitraries.strings().numeric().ofLength(length - 2).map(body -> withCheckDigit(
                        (char) ('2' + body.length() % 5) + body)));
    }

    @Provide
    Arbitrary<Map<String, Object>> validCommands() {
        Arbitrary<String> orderIds = Arbitraries.of("order-", "заказ ", "ORD_", "inv/").flatMap(prefix ->
                Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(12).map(s -> prefix + s));
        Arbitrary<Long> amounts = Arbitraries.longs().between(1, 999_999_999_999L); // 13+ digits may pass Luhn: see CardNumbers
        Arbitrary<String> currencies = Arbitraries.of("RUB", "rub", "Usd", "EUR");
        Arbitrary<String> dueAt = Arbitraries.longs().between(Instant.parse("0001-01-03T00:00:00Z").getEpochSecond(),
                Instant.parse("3999-12-29T00:00:00Z").getEpochSecond()).map(s -> Instant.ofEpochSecond(s)
                .atOffset(ZoneOffset.ofHours((int) (s % 15))).toString());
        return Combinators.combine(orderIds, amounts, currencies, dueAt, Arbitraries.of(true, false)).as((order, amount, currency, due, post) -> {
            Map<String, Object> command = Bodies.invoice(order);
            @SuppressWarnings("unchecked")
            Map<String, Object> payload = (Map<String, Object>) command.get("payload");
            payload.put("amount_minor", amount);
            payload.put("currency", currency);
            payload.put("due_at", due);
            payload.put("post", post);
            return command;
        });
    }

    private static String typed(String digits, Random random) {
        int zero = ZEROS[random.nextInt(ZEROS.length)];
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < digits.length(); i++) {
            if (i > 0 && random.nextInt(3) == 0) {
                for (int n = 1 + random.nextInt(CardNumbers.MAX_GAP - 1); n > 0; n--) {
                    out.append(SEPARATORS.charAt(random.nextInt(SEPARATORS.length())));
                }
            }
            out.appendCodePoint(random.nextInt(4) == 0 ? ZEROS[random.nextInt(ZEROS.length)] + digits.charAt(i) - '0'
                    : zero + digits.charAt(i) - '0');
        }
        return out.toString();
    }

    /** Words of letters that are not hex digits, so that none glues onto the number as a hex id would. */
    private static String words(Random random) {
        List<String> words = new ArrayList<>(List.of("карта", "pay", "with", "номер", "my", "ok", "zip", "тест"));
        Collections.shuffle(words, random);
        return String.join(" ", words.subList(0, random.nextInt(4)));
    }

    private static String decimalUuid(Random random) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < 32; i++) {
            hex.append((char) ('0' + random.nextInt(10)));
        }
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-" + hex.substring(16, 20) + "-" + hex.substring(20);
    }

    private static String hex(Random random, int length) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < length; i++) {
            hex.append(Character.forDigit(random.nextInt(16), 16));
        }
        return hex.toString();
    }

    static String withCheckDigit(String body) {
        for (char check = '0'; check <= '9'; check++) {
            if (CardNumbers.luhn(body + check)) {
                return body + check;
            }
        }
        throw new AssertionError("one of ten check digits always completes a Luhn sum");
    }
}
