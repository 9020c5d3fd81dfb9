package dev.toolgate.canonical;

import static dev.toolgate.canonical.InvalidCommand.Reason.CARD_NUMBER;
import static dev.toolgate.canonical.InvalidCommand.Reason.INVALID_PAYLOAD;
import static dev.toolgate.canonical.InvalidCommand.Reason.NOT_I_JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

/** Bodies an attacker or a confused agent sends: each is refused as a 4xx InvalidCommand before anything is stored. */
class HostileInputTest {

    private static final String HEAD = "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{";

    @Test
    void refusesDuplicateMemberNamesAtEveryLevel() {
        assertNotIJson("\"order_id\":\"a\",\"order_id\":\"b\",\"amount_minor\":1,\"currency\":\"RUB\"}}",
                "\"order_id\":\"a\",\"amount_minor\":1,\"currency\":\"RUB\"},\"target\":\"1c\"}",
                "\"order_id\":\"a\",\"\\u006frder_id\":\"b\",\"amount_minor\":1,\"currency\":\"RUB\"}}",
                "\"order_id\":\"a\",\"amount_minor\":1,\"currency\":\"RUB\"},\"trace_id\":{\"x\":1,\"x\":2}}");
    }

    @Test
    void refusesLoneSurrogatesAndNoncharacters() {
        assertNotIJson("\"order_id\":\"a\\ud800\",\"amount_minor\":1,\"currency\":\"RUB\"}}",
                "\"order_id\":\"a\\udc00b\",\"amount_minor\":1,\"currency\":\"RUB\"}}",
                "\"order_id\":\"a\",\"amount_minor\":1,\"currency\":\"RUB\"},\"trace_id\":\"\\udbff\"}",
                "\"order_id\":\"a\\uffff\",\"amount_minor\":1,\"currency\":\"RUB\"}}");
    }

    @Test
    void refusesBytesThatAreNotUtf8() {
        byte[] head = (HEAD + "\"order_id\":\"a").getBytes(StandardCharsets.UTF_8);
        byte[] tail = "\",\"amount_minor\":1,\"currency\":\"RUB\"}}".getBytes(StandardCharsets.UTF_8);
        for (byte[] bad : new byte[][]{{(byte) 0xff}, {(byte) 0xc3}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xc0, (byte) 0xaf}}) {
            byte[] body = new byte[head.length + bad.length + tail.length];
            System.arraycopy(head, 0, body, 0, head.length);
            System.arraycopy(bad, 0, body, head.length, bad.length);
            System.arraycopy(tail, 0, body, head.length + bad.length, tail.length);
            assertEquals(NOT_I_JSON, assertThrows(InvalidCommand.class, () -> CommandParser.parse(body)).reason());
        }
    }

    @Test
    void refusesNumbersNoDoubleCanHold() {
        assertNotIJson("\"order_id\":\"a\",\"amount_minor\":1e400,\"currency\":\"RUB\"}}",
                "\"order_id\":\"a\",\"amount_minor\":1e99999999999,\"currency\":\"RUB\"}}",
                "\"order_id\":\"a\",\"amount_minor\":1,\"currency\":\"RUB\"},\"attempt\":-1e999999999999}");
    }

    @Test
    void refusesAmountsOutsideTheTargetsRange() {
        assertInvalid("{\"order_id\":\"a\",\"amount_minor\":12345678901234567890123,\"currency\":\"RUB\"}");
        assertInvalid("{\"order_id\":\"a\",\"amount_minor\":1000000000000000,\"currency\":\"RUB\"}");
        assertInvalid("{\"order_id\":\"a\",\"amount_minor\":-0,\"currency\":\"RUB\"}");
        assertInvalid("{\"order_id\":\"a\",\"amount_minor\":1.5,\"currency\":\"RUB\"}");
    }

    @Test
    void refusesDueDatesOutsideWhat1CKeeps() {
        assertInvalid("{\"order_id\":\"a\",\"amount_minor\":1,\"currency\":\"RUB\",\"due_at\":\"+10000-01-01T00:00:00Z\"}");
        assertInvalid("{\"order_id\":\"a\",\"amount_minor\":1,\"currency\":\"RUB\",\"due_at\":\"-5000-01-01T00:00:00Z\"}");
        assertInvalid("{\"order_id\":\"a\",\"amount_minor\":1,\"currency\":\"RUB\",\"due_at\":\"0000-06-01T00:00:00Z\"}");
        assertInvalid("{\"order_id\":\"a\",\"amount_minor\":1,\"currency\":\"RUB\",\"due_at\":\"3999-12-31T23:00:00-05:00\"}");
    }

    @Test
    void refusesCurrencyCodesThatAreOnlyUpperCasedIntoAnIsoCode() {
        assertInvalid("{\"order_id\":\"a\",\"amount_minor\":1,\"currency\":\"\u0131nr\"}"); // dotless ı upper-cases to I
    }

    @Test
    void refusesCardNumbersWrittenWithAnySeparatorOrDigitForm() {
        for (String card : new String[]{"4111·1111·1111·1111", "4111\u00a01111\u00a01111\u00a01111", "4111.1111.1111.1111",
                "4111/1111/1111/1111", "4111_1111_1111_1111", "4111\u20131111\u20141111\u22121111", "4111\u200b1111\u200b1111\u200b1111",
                "４１１１１１１１１１１１１１１１", "\u0664\u0661\u0661\u0661 \u0661\u0661\u0661\u0661 \u0661\u0661\u0661\u0661 \u0661\u0661\u0661\u0661",
                "\u096a\u0967\u0967\u0967-\u0967\u0967\u0967\u0967-\u0967\u0967\u0967\u0967-\u0967\u0967\u0967\u0967",
                "4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "41 11 -- 11 11  11 11 11 11", "card: 4111 1111 1111 1111, exp 12/26"}) {
            InvalidCommand e = assertThrows(InvalidCommand.class,
                    () -> parse(HEAD + "\"order_id\":\"" + card + "\",\"amount_minor\":1,\"currency\":\"RUB\"}}"), card);
            assertEquals(CARD_NUMBER, e.reason(), card);
            assertEquals("payload.order_id", e.field());
        }
    }

    @Test
    void refusesCardNumbersInMemberNamesAndNestedValuesWithoutEchoingThem() {
        InvalidCommand named = assertThrows(InvalidCommand.class,
                () -> parse(HEAD + "\"4111 1111 1111 1111\":\"a\",\"amount_minor\":1,\"currency\":\"RUB\"}}"));
        assertEquals(CARD_NUMBER, named.reason());
        assertFalse(named.field().contains("4111") || named.getMessage().contains("4111"), named.field());
        InvalidCommand nested = assertThrows(InvalidCommand.class,
                () -> parse(HEAD + "\"order_id\":\"a\",\"amount_minor\":1,\"currency\":\"RUB\"},\"trace_id\":[{\"x\":\"5500.0000.0000.0004\"}]}"));
        assertEquals("trace_id[0].x", nested.field());
    }

    @Test
    void leavesUuidsTimestampsAndOrdinaryIdsAlone() {
        for (String text : new String[]{"5f1c0a3e-0643-4f00-8000-000000000643", "12345678-1234-4234-8234-123456789012",
                "2026-12-01T12:00:00.123456789+03:00", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "order-48291", "prod:invoice.create:order-48291:v1", "ИНН 770708389312", "1234567890123456789012345"}) {
            assertFalse(CardNumbers.contains(text), text);
        }
    }

    @Test
    void aTextThatIsNotWhatWasSentNeverSharesAFingerprint() {
        String a = Canonicalizer.canonicalize(parse(HEAD + "\"order_id\":\"a\\u00e9\",\"amount_minor\":1,\"currency\":\"RUB\"}}")).fingerprint();
        String b = Canonicalizer.canonicalize(parse(HEAD + "\"order_id\":\"ae\\u0301\",\"amount_minor\":1,\"currency\":\"RUB\"}}")).fingerprint();
        assertNotEquals(a, b, "two spellings are kept as sent, so they are two fingerprints");
    }

    private static AgentCommand parse(String body) {
        return CommandParser.parse(body);
    }

    /** Each of {@code rests}, the rest of a body after the payload's opening brace, is refused as not I-JSON. */
    private static void assertNotIJson(String... rests) {
        for (String rest : rests) {
            String body = HEAD + rest;
            assertEquals(NOT_I_JSON, assertThrows(InvalidCommand.class, () -> Canonicalizer.canonicalize(parse(body))).reason(), body);
        }
    }

    private static void assertInvalid(String payload) {
        String body = "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":" + payload + "}";
        assertEquals(INVALID_PAYLOAD, assertThrows(InvalidCommand.class, () -> Canonicalizer.canonicalize(parse(body))).reason(), body);
    }
}
