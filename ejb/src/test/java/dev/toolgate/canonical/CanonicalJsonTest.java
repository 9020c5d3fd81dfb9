package dev.toolgate.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

class CanonicalJsonTest {

    /** A reference value and the hash {@code printf … | sha256sum} prints for its canonical form. */
    static final String SEED_CANONICAL = "{\"account_id\":\"merchant-account-17\",\"amount_minor\":125000,\"currency\":\"RUB\","
            + "\"operation\":\"payment.charge\",\"order_id\":\"order-48291\"}";
    static final String SEED_SHA256 = "28a4262860864e5110d391a4556da2ad2f539ae2f87e52871f80cb7381d86aa6";

    @Test
    void seedPayloadYieldsTheSeedsSha256() {
        // the same payload as an agent might send it: another key order, pretty-printed
        JsonObject sent = read("""
                {
                  "operation": "payment.charge",
                  "account_id": "merchant-account-17",
                  "order_id": "order-48291",
                  "amount_minor": 125000,
                  "currency": "RUB"
                }""");

        String canonical = CanonicalJson.write(sent);

        assertEquals(SEED_CANONICAL, canonical);
        assertEquals(SEED_SHA256, Fingerprint.of(canonical));
    }

    @Test
    void sortsNestedObjectsAndKeepsArrayOrder() {
        assertEquals("{\"a\":[3,1,{\"x\":1,\"y\":2}],\"b\":{\"c\":true,\"d\":null}}",
                CanonicalJson.write(read("{\"b\":{\"d\":null,\"c\":true},\"a\":[3,1,{\"y\":2,\"x\":1}]}")));
    }

    @Test
    void escapesAsJcsDoes() {
        JsonObject o = Json.createObjectBuilder().add("s", "q\"b\\n\n\u0001/Ж").build();
        assertEquals("{\"s\":\"q\\\"b\\\\n\\n\\u0001/Ж\"}", CanonicalJson.write(o));
    }

    static JsonObject read(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }
}
