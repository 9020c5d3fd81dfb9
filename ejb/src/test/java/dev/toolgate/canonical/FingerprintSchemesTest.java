package dev.toolgate.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Scheme 1's output, pinned: every operation of the catalog, and the normalizations a retry relies on (key order,
 * currency case, an optional field left out or null, Unicode). A change to the canonical form or the catalog that
 * alters any of these fails here — it must come as a new scheme, or every retry of an operation captured before the
 * release would be refused as a reused key.
 */
class FingerprintSchemesTest {

    /** {@code operation target payload} → the fingerprint scheme 1 gives it. */
    private static final Map<String, String> PINNED = new LinkedHashMap<>();

    static {
        PINNED.put("invoice.create 1c {\"order_id\":\"order-48291\",\"amount_minor\":125000,\"currency\":\"RUB\"}", "9ecad87bcdba2ef77a5485038a756823399f1602eeb55892a72be241896618de");
        PINNED.put("invoice.create 1c {\"currency\":\"rub\",\"amount_minor\":125000,\"order_id\":\"order-48291\",\"counterparty_inn\":null}", "9ecad87bcdba2ef77a5485038a756823399f1602eeb55892a72be241896618de");
        PINNED.put("invoice.create 1c {\"order_id\":\"o-2\",\"amount_minor\":1,\"currency\":\"USD\",\"counterparty_inn\":\"7707083893\",\"post\":true}", "922246db437eb23cca29300de898cba37fd99ae0536ee3183b335c50917d178f");
        PINNED.put("invoice.post 1c {\"invoice_id\":\"5e1d0c2a-0000-4000-8000-000000000001\"}", "22ddfdc3ce56b2e9d87a844d91e17a10db2906674a9cfc836d4e7c15372b5ddc");
        PINNED.put("invoice.cancel 1c {\"invoice_id\":\"5e1d0c2a-0000-4000-8000-000000000001\",\"reason\":\"Ошибка в сумме\"}", "69c542bd63f0a6769eef710e402905f25ce649a1541d2d6d4465afdc8de8afb3");
        PINNED.put("crm.deal.create bitrix24 {\"title\":\"Сделка «Ромашка» \\u2014 №7\",\"amount_minor\":990000,\"currency\":\"RUB\"}", "85d2681f064a10659a09d3e8f29a3c131cd80acec20e9cf51f3e7d8243d79fe1");
        PINNED.put("crm.deal.lose bitrix24 {\"deal_id\":\"4711\"}", "566fe25530ca27f9f0891f9edc009d8369be317655887dae35de218126fed512");
        PINNED.put("payment.create yookassa {\"order_id\":\"order-48291\",\"amount_minor\":125000,\"currency\":\"RUB\",\"description\":\"Заказ 48291\"}", "a27240f54f2d751f5207aff348d08d7ef5ee70d0a8daf5df94e77ffddb81b2bf");
        PINNED.put("payment.refund yookassa {\"payment_id\":\"2f6a0b3c-000f-5000-9000-1b2c3d4e5f60\",\"amount_minor\":50000,\"currency\":\"RUB\",\"reason\":\"Возврат\"}", "c2df01147c5ebc44fe717462ddaa3816aef5f1c72fc6d2da2701a1f83d06355b");
    }

    @Test
    void schemeOneGivesEachPinnedCommandItsPinnedFingerprint() {
        StringBuilder actual = new StringBuilder();
        PINNED.forEach((command, expected) -> actual.append(command).append(" -> ").append(fingerprint(command)).append('\n'));
        PINNED.forEach((command, expected) -> assertEquals(expected, fingerprint(command), "scheme 1 changed for " + command + "\nall:\n" + actual));
    }

    @Test
    void theSeedsExampleIsSchemeOne() {
        // the documented form: sorted keys, amounts in minor units, operation and target beside the payload's fields
        String canonical = "{\"amount_minor\":125000,\"currency\":\"RUB\",\"operation\":\"invoice.create\",\"order_id\":\"order-48291\",\"target\":\"1c\"}";
        assertEquals(Fingerprint.of(canonical), fingerprint("invoice.create 1c {\"order_id\":\"order-48291\",\"amount_minor\":125000,\"currency\":\"RUB\"}"));
    }

    @Test
    void readsTheSchemeAStoredFingerprintCarries() {
        assertEquals(1, FingerprintSchemes.schemeOf("a".repeat(64)));
        assertEquals(2, FingerprintSchemes.schemeOf("s2:" + "a".repeat(64)));
        assertEquals(0, FingerprintSchemes.schemeOf("sx:" + "a".repeat(64)));
    }

    @Test
    void comparesARetryUnderTheRowsSchemeAndNeverCallsAnUnknownSchemeADifferentPayload() {
        String stored = fingerprint("invoice.create 1c {\"order_id\":\"o-1\",\"amount_minor\":100,\"currency\":\"RUB\"}");
        assertEquals(FingerprintSchemes.Match.SAME, FingerprintSchemes.match(stored, stored));
        assertEquals(FingerprintSchemes.Match.DIFFERENT, FingerprintSchemes.match(stored, "b".repeat(64)));
        assertEquals(FingerprintSchemes.Match.UNCHECKABLE, FingerprintSchemes.match("s2:" + "c".repeat(64), stored));
        assertEquals(FingerprintSchemes.Match.UNCHECKABLE, FingerprintSchemes.match("sx:" + "c".repeat(64), stored));
    }

    private static String fingerprint(String command) {
        String[] parts = command.split(" ", 3);
        return Canonicalizer.canonicalize(new AgentCommand(parts[0], parts[1],
                Json.createReader(new StringReader(parts[2])).readObject())).fingerprint();
    }
}
