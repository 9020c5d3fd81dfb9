package dev.toolgate.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

class CanonicalizerTest {

    private static final int CASES = 500;

    @Test
    void keyOrderAndWhitespaceNeverChangeTheFingerprint() {
        Random random = new Random(20261130);
        for (int i = 0; i < CASES; i++) {
            Map<String, JsonValue> fields = invoice(random).build();
            String reference = fingerprint(write(fields, new ArrayList<>(fields.keySet()), ""));
            List<String> order = new ArrayList<>(fields.keySet());
            Collections.shuffle(order, random);
            String spaced = " \n\t".substring(0, random.nextInt(3) + 1);
            assertEquals(reference, fingerprint(write(fields, order, spaced)), "case " + i);
        }
    }

    @Test
    void everySignificantChangeChangesTheFingerprint() {
        Random random = new Random(48291);
        for (int i = 0; i < CASES; i++) {
            JsonObject base = invoice(random).build();
            String reference = fingerprint(base);
            assertNotEquals(reference, fingerprint(with(base, "amount_minor", Json.createValue(base.getJsonNumber("amount_minor").longValue() + 1))));
            assertNotEquals(reference, fingerprint(with(base, "order_id", Json.createValue(base.getString("order_id") + "x"))));
            assertNotEquals(reference, fingerprint(with(base, "currency", Json.createValue(base.getString("currency").equals("RUB") ? "USD" : "RUB"))));
            assertNotEquals(reference, fingerprint(with(base, "counterparty_inn", Json.createValue("7736207543"))));
        }
    }

    @Test
    void transportFieldsAreNotPartOfTheIntent() {
        JsonObject plain = invoice(new Random(1)).build();
        JsonObject delivered = Json.createObjectBuilder(plain).add("attempt", 3).add("sent_at", "2026-11-30T10:00:00Z")
                .add("trace_id", "4bf92f3577b34da6a3ce929d0e0e4736").build();
        assertEquals(fingerprint(plain), fingerprint(delivered));
    }

    @Test
    void postingOffAndLeftOutAreOneIntentAndPostingOnAnother() {
        JsonObject plain = invoice(new Random(3)).build();
        assertEquals(fingerprint(plain), fingerprint(with(plain, "post", JsonValue.FALSE)));
        assertNotEquals(fingerprint(plain), fingerprint(with(plain, "post", JsonValue.TRUE)));
        assertInvalid("post", with(plain, "post", Json.createValue("yes")).toString());
    }

    @Test
    void currencyIsNormalizedToUpperCase() {
        JsonObject upper = invoice(new Random(2)).add("currency", "RUB").build();
        assertEquals(fingerprint(upper), fingerprint(with(upper, "currency", Json.createValue("rub"))));
    }

    @Test
    void timestampsAreNormalizedToUtc() {
        JsonObject moscow = invoice(new Random(3)).add("due_at", "2026-12-01T15:00:00+03:00").build();
        JsonObject utc = with(moscow, "due_at", Json.createValue("2026-12-01T12:00:00Z"));
        assertEquals(fingerprint(moscow), fingerprint(utc));
        assertEquals("2026-12-01T12:00:00Z", canonical(moscow).payload().getString("due_at"));
    }

    @Test
    void absentAndNullOptionalFieldAreTheSameIntent() {
        JsonObject absent = read("{\"order_id\":\"o-1\",\"amount_minor\":100,\"currency\":\"RUB\"}");
        assertEquals(fingerprint(absent), fingerprint(with(absent, "counterparty_inn", JsonValue.NULL)));
    }

    @Test
    void fingerprintCoversOperationAndTargetFlat() {
        JsonObject payload = read("{\"order_id\":\"order-48291\",\"amount_minor\":125000,\"currency\":\"RUB\"}");
        String expected = Fingerprint.of("{\"amount_minor\":125000,\"currency\":\"RUB\",\"operation\":\"invoice.create\","
                + "\"order_id\":\"order-48291\",\"target\":\"1c\"}");
        assertEquals(expected, fingerprint(payload));
    }

    @Test
    void withholdsSensitiveFieldsFromWhatIsStoredButNotFromTheFingerprint() {
        JsonObject withInn = read("{\"order_id\":\"o\",\"amount_minor\":100,\"currency\":\"RUB\",\"counterparty_inn\":\"500100732259\"}");
        CanonicalRequest request = canonical(withInn);

        assertEquals(List.of("counterparty_inn"), request.withheldFields());
        assertEquals(false, request.storedPayload().containsKey("counterparty_inn"));
        assertEquals("500100732259", request.payload().getString("counterparty_inn"), "the target still gets it");
        assertNotEquals(request.fingerprint(), fingerprint(with(withInn, "counterparty_inn", Json.createValue("500100732260"))));
        CanonicalRequest plain = canonical(read("{\"order_id\":\"o\",\"amount_minor\":100,\"currency\":\"RUB\"}"));
        assertEquals(List.of(), plain.withheldFields());
        assertEquals(plain.payload(), plain.storedPayload(), "nothing withheld: all of it stored");
    }

    @Test
    void refusesFractionalAmountInsteadOfRounding() {
        assertInvalid("amount_minor", "{\"order_id\":\"o\",\"amount_minor\":1250.5,\"currency\":\"RUB\"}");
        assertInvalid("amount_minor", "{\"order_id\":\"o\",\"amount_minor\":125000.0,\"currency\":\"RUB\"}");
    }

    @Test
    void refusesNegativeZeroAndNonNumericAmounts() {
        assertInvalid("amount_minor", "{\"order_id\":\"o\",\"amount_minor\":-5,\"currency\":\"RUB\"}");
        assertInvalid("amount_minor", "{\"order_id\":\"o\",\"amount_minor\":0,\"currency\":\"RUB\"}");
        assertInvalid("amount_minor", "{\"order_id\":\"o\",\"amount_minor\":\"100\",\"currency\":\"RUB\"}");
        assertInvalid("amount_minor", "{\"order_id\":\"o\",\"amount_minor\":99999999999999999999,\"currency\":\"RUB\"}");
    }

    @Test
    void refusesUnknownCurrencyCodes() {
        assertInvalid("currency", "{\"order_id\":\"o\",\"amount_minor\":1,\"currency\":\"RUBL\"}");
        assertInvalid("currency", "{\"order_id\":\"o\",\"amount_minor\":1,\"currency\":\"XQZ\"}");
    }

    @Test
    void refusesUnknownAndMissingFields() {
        assertInvalid("discount", "{\"order_id\":\"o\",\"amount_minor\":1,\"currency\":\"RUB\",\"discount\":5}");
        assertInvalid("order_id", "{\"amount_minor\":1,\"currency\":\"RUB\"}");
        assertInvalid("order_id", "{\"order_id\":\"  \",\"amount_minor\":1,\"currency\":\"RUB\"}");
        assertInvalid("due_at", "{\"order_id\":\"o\",\"amount_minor\":1,\"currency\":\"RUB\",\"due_at\":\"2026-12-01T12:00:00\"}");
        assertInvalid("counterparty_inn", "{\"order_id\":\"o\",\"amount_minor\":1,\"currency\":\"RUB\",\"counterparty_inn\":\"12345\"}");
    }

    @Test
    void refusesUnknownOperationAndWrongTarget() {
        JsonObject payload = read("{\"order_id\":\"o\",\"amount_minor\":1,\"currency\":\"RUB\"}");
        InvalidCommand unknown = assertThrows(InvalidCommand.class,
                () -> Canonicalizer.canonicalize(new AgentCommand("invoice.delete", "1c", payload)));
        assertEquals(InvalidCommand.Reason.UNKNOWN_OPERATION, unknown.reason());
        InvalidCommand wrongTarget = assertThrows(InvalidCommand.class,
                () -> Canonicalizer.canonicalize(new AgentCommand("invoice.create", "bitrix24", payload)));
        assertEquals(InvalidCommand.Reason.UNKNOWN_TARGET, wrongTarget.reason());
    }

    private static void assertInvalid(String field, String payload) {
        InvalidCommand e = assertThrows(InvalidCommand.class, () -> canonical(read(payload)));
        assertEquals(InvalidCommand.Reason.INVALID_PAYLOAD, e.reason());
        assertEquals(field, e.field(), e.getMessage());
    }

    private static JsonObjectBuilder invoice(Random random) {
        JsonObjectBuilder b = Json.createObjectBuilder()
                .add("order_id", "order-" + random.nextInt(1_000_000))
                .add("amount_minor", 1 + (long) random.nextInt(Integer.MAX_VALUE))
                .add("currency", List.of("RUB", "USD", "EUR").get(random.nextInt(3)));
        if (random.nextBoolean()) {
            b.add("counterparty_inn", "7707083893");
        }
        return b;
    }

    private static JsonObject with(JsonObject base, String field, JsonValue value) {
        return Json.createObjectBuilder(base).add(field, value).build();
    }

    private static String write(Map<String, JsonValue> fields, List<String> order, String space) {
        StringBuilder json = new StringBuilder("{" + space);
        for (int i = 0; i < order.size(); i++) {
            json.append(i > 0 ? "," + space : "").append('"').append(order.get(i)).append('"').append(space).append(':')
                    .append(space).append(fields.get(order.get(i)));
        }
        return json.append(space).append('}').toString();
    }

    private static String fingerprint(String payloadJson) {
        return fingerprint(read(payloadJson));
    }

    private static String fingerprint(JsonObject payload) {
        return canonical(payload).fingerprint();
    }

    private static CanonicalRequest canonical(JsonObject payload) {
        return Canonicalizer.canonicalize(new AgentCommand("invoice.create", "1c", payload));
    }

    private static JsonObject read(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }
}
