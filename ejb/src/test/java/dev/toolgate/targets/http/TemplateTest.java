package dev.toolgate.targets.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.toolgate.targets.Attempt;
import jakarta.json.Json;
import org.junit.jupiter.api.Test;

import java.time.Instant;

class TemplateTest {

    private static final Attempt DISPATCH = new Attempt("acme/order 1", "invoice.create", 2,
            Json.createObjectBuilder().add("order_id", "o\"1\",\"amount\":0").add("amount_minor", 100).build(),
            Instant.EPOCH, null, "4bf92f3577b34da6a3ce929d0e0e4736");

    @Test
    void encodesValuesForAUrlPath() {
        assertEquals("https://x/doc/acme%2Forder%201?a=2", new Template("https://x/doc/{{key}}?a={{attempt}}").url(DISPATCH));
    }

    @Test
    void writesValuesAsJsonLiteralsSoNoneCanInjectAField() {
        assertEquals("{\"o\":\"o\\\"1\\\",\\\"amount\\\":0\",\"m\":100,\"t\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"x\":null}",
                new Template("{\"o\":{{payload.order_id}},\"m\":{{payload.amount_minor}},\"t\":{{trace_id}},\"x\":{{payload.nope}}}").json(DISPATCH));
    }

    @Test
    void refusesAnUnknownPlaceholderWhenConfigured() {
        assertThrows(IllegalArgumentException.class, () -> new Template("https://x/{{secret}}"));
    }

    @Test
    void classifiesByStatusFamilyAndCodeThenByDefault() {
        Classification table = new Classification("409:pending,4xx:final,code:LOCKED:retry");
        assertEquals(Classification.Kind.PENDING, table.of(409, null));
        assertEquals(Classification.Kind.RETRY, table.of(400, "LOCKED"));
        assertEquals(Classification.Kind.FINAL, table.of(418, null));
        assertEquals(Classification.Kind.UNKNOWN, table.of(503, null)); // the default: a proxy's 503 proves nothing
        assertEquals(Classification.Kind.UNKNOWN, table.of(504, null));
        assertThrows(IllegalArgumentException.class, () -> new Classification("500"));
    }
}
