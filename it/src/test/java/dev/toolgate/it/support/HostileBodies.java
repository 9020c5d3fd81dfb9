package dev.toolgate.it.support;


import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * Request bodies for the fuzz run, each generated from one seeded {@link Random}: well-formed commands
 * for the simulated 1C and Bitrix24, and hostile variants of them that the gateway must refuse.
 */
public final class HostileBodies {

    /** One generated request: the body's bytes, whether it must be accepted, and its Idempotency-Key. */
    public record Case(String key, byte[] body, boolean valid, String kind) {
    }

    private static final List<String> SEPARATORS = List.of(" ", "\u00a0", "\u2009", ".", "·", "/", "_", "-", "\u2013", "\u2014",
            "\u200b", " - ", "  ", "\u3000");
    private static final int[] ZEROS = {'0', 0xFF10, 0x0660, 0x06F0, 0x0966};
    private static final String[] CARDS = {"4111111111111111", "5500000000000004", "378282246310005", "6011111111111117",
            "3530111333300000", "4222222222222"};

    private final Random random;
    private final String keyPrefix;

    public HostileBodies(long seed) {
        this.random = new Random(seed);
        this.keyPrefix = "fuzz-s" + seed + "-n"; // letters between the digit groups: a key never reads as a card number
    }

    public Case next(int n) {
        String key = keyPrefix + n;
        int kind = random.nextInt(20);
        return switch (kind) {
            case 0, 1, 2, 3, 4 -> new Case(key, utf8(invoice("\"fuzz order n" + n + " " + text() + "\"", amount(), dueAt())), true, "invoice");
            case 5, 6 -> new Case(key, utf8(deal(n)), true, "deal");
            case 7 -> refused(key, "duplicate", invoice("\"o\"", amount(), "").replace("\"currency\"", "\"order_id\":\"p\",\"currency\""));
            case 8 -> refused(key, "surrogate", invoice("\"o\\u" + Integer.toHexString(0xD800 + random.nextInt(0x800)) + "\"", amount(), ""));
            case 9 -> new Case(key, notUtf8(), false, "not-utf-8");
            case 10 -> refused(key, "number", invoice("\"o\"", List.of("1e400", "1.5", "12345678901234567890123", "-0", "0", "-7",
                    "1000000000000000", "\"100\"", "1e-400", "100.0", "1e99999999999", "-1E-99999999999").get(random.nextInt(12)), ""));
            case 11 -> refused(key, "due-at", invoice("\"o\"", amount(), List.of("+10000-01-01T00:00:00Z", "-5000-06-01T00:00:00Z",
                    "0000-01-01T00:00:00Z", "2026-12-01T12:00:00", "2026-13-01T00:00:00Z", "soon").get(random.nextInt(6))));
            case 12 -> refused(key, "card", invoice("\"pay " + card() + " now\"", amount(), ""));
            case 13 -> refused(key, "card-in-name", "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"o\","
                    + "\"amount_minor\":1,\"currency\":\"RUB\"},\"trace_id\":{\"" + card() + "\":1}}");
            case 14 -> new Case(key + "-4111.1111.1111.1111", utf8(invoice("\"o\"", amount(), "")), false, "card-in-key");
            case 15 -> truncated(key);
            case 16 -> new Case(key, garbage(), false, "garbage");
            case 17 -> refused(key, "deep", "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":" + "[".repeat(20 + random.nextInt(5000))
                    + "]".repeat(random.nextInt(3)) + "}");
            case 18 -> refused(key, "shape", List.of(invoice("\"o\\u0007\"", amount(), ""), invoice("\"\"", amount(), ""),
                    invoice("\"" + "x".repeat(129) + "\"", amount(), ""), invoice("17", amount(), ""),
                    invoice("\"o\"", amount(), "").replace("invoice.create", "invoice.delete"),
                    invoice("\"o\"", amount(), "").replace("\"1c\"", "\"bitrix24\""),
                    invoice("\"o\"", amount(), "").replace("\"currency\"", "\"colour\":\"red\",\"currency\""),
                    invoice("\"o\"", amount(), "").replace("RUB", "\u0131nr")).get(random.nextInt(8)));
            default -> refused(key, "top", List.of("[]", "\"x\"", "null", "{}", "{\"operation\":1}", "", " ", "{\"a\":1}{}").get(random.nextInt(8)));
        };
    }

    private static Case refused(String key, String kind, String body) {
        return new Case(key, utf8(body), false, kind);
    }

    private static String invoice(String orderId, String amount, String dueAt) {
        return "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":" + orderId + ",\"amount_minor\":" + amount
                + ",\"currency\":\"RUB\"" + (dueAt.isEmpty() ? "" : ",\"due_at\":\"" + dueAt + "\"") + "},\"attempt\":1}";
    }

    private String deal(int n) {
        return "{\"target\" : \"bitrix24\",\n \"payload\":{\"currency\":\"" + (random.nextBoolean() ? "rub" : "RUB") + "\",\"amount_minor\":"
                + amount() + ",\"title\":\"Сделка n" + n + " " + text() + "\"},\"operation\":\"crm.deal.create\"}";
    }

    private String amount() {
        return Long.toString(1 + random.nextInt(1_000_000_000));
    }

    private String dueAt() {
        return random.nextBoolean() ? "" : (2000 + random.nextInt(1999)) + "-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(9)
                + "T10:00:00+03:00";
    }

    /** Letters only, of several scripts, with escapes a client may use; never digits, so never a card number. */
    private String text() {
        String[] words = {"счёт", "déjà", "日本", "\\u00e9t\\u00e9", "naïve", "emoji \\ud83d\\ude00", "a\\\"b", "slash\\/x"};
        return words[random.nextInt(words.length)];
    }

    private String card() {
        String digits = CARDS[random.nextInt(CARDS.length)];
        int zero = ZEROS[random.nextInt(ZEROS.length)];
        StringBuilder typed = new StringBuilder();
        for (int i = 0; i < digits.length(); i++) {
            if (i > 0 && i % (3 + random.nextInt(3)) == 0) {
                typed.append(SEPARATORS.get(random.nextInt(SEPARATORS.size())));
            }
            typed.appendCodePoint(zero + digits.charAt(i) - '0');
        }
        return typed.toString();
    }

    private Case truncated(String key) {
        byte[] whole = utf8(invoice("\"o\"", amount(), dueAt()));
        byte[] cut = new byte[random.nextInt(whole.length)];
        System.arraycopy(whole, 0, cut, 0, cut.length);
        return new Case(key, cut, false, "truncated");
    }

    /** Invalid UTF-8 inside a string: a stray continuation byte, a cut sequence, an overlong '/', an encoded surrogate. */
    private byte[] notUtf8() {
        byte[][] bad = {{(byte) 0x80}, {(byte) 0xc3}, {(byte) 0xc0, (byte) 0xaf}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xff}};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8("{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"o"));
        out.writeBytes(bad[random.nextInt(bad.length)]);
        out.writeBytes(utf8("\",\"amount_minor\":1,\"currency\":\"RUB\"}}"));
        return out.toByteArray();
    }

    private byte[] garbage() {
        byte[] bytes = new byte[1 + random.nextInt(200)];
        random.nextBytes(bytes);
        bytes[0] = '{';
        return bytes;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
