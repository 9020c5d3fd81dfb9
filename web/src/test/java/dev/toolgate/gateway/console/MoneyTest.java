package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

/** Amounts as people read them ({@link Money}): major units, the currency's own fraction digits, thousands grouped. */
class MoneyTest {

    @Test
    void showsRoublesWithTwoFractionDigits() {
        assertEquals("1,250.00 RUB", Money.of(amount(125_000, "RUB")));
        assertEquals("0.05 RUB", Money.of(amount(5, "RUB")));
    }

    @Test
    void showsYenWithoutFractionDigits() {
        assertEquals("1,250 JPY", Money.of(amount(1_250, "JPY")));
    }

    @Test
    void groupsThousands() {
        assertEquals("12,345,678.90 USD", Money.of(amount(1_234_567_890, "USD")));
        assertEquals("999.99 EUR", Money.of(amount(99_999, "EUR")));
    }

    @Test
    void showsAnAmountItCannotReadAsStored() {
        assertEquals("100 (minor units) \"XYZW\"", Money.of(amount(100, "XYZW")));
    }

    @Test
    void showsNoAmountForAPayloadWithoutOne() {
        assertNull(Money.of(null));
        assertNull(Money.of(Json.createObjectBuilder().add("title", "Deal").build()));
        assertNull(Money.of(Json.createObjectBuilder().add("amount_minor", 100).build()), "no currency");
        assertNull(Money.of(Json.createObjectBuilder().add("currency", "RUB").build()), "no amount");
        assertNull(Money.of(Json.createObjectBuilder().add("amount_minor", "100").add("currency", "RUB").build()), "not a number");
    }

    @Test
    void formatsAMajorAmountWithItsOwnScale() {
        assertEquals("1,000.00 RUB", Money.format(new BigDecimal("1000.00"), "RUB"));
        assertEquals("700.5 RUB", Money.format(new BigDecimal("700.5"), "RUB"), "as the payment system wrote it");
        assertEquals("0 RUB", Money.format(BigDecimal.ZERO, "RUB"));
        assertEquals("-300.00 RUB", Money.format(new BigDecimal("-300.00"), "RUB"));
    }

    private static JsonObject amount(long minor, String currency) {
        return Json.createObjectBuilder().add("amount_minor", minor).add("currency", currency).build();
    }
}
