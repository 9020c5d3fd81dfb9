package dev.toolgate.gateway.console;

import dev.toolgate.canonical.FieldType;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;

import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/** Amounts for people: minor units as the journal keeps them, shown in major units with their currency. */
final class Money {

    private Money() {
    }

    /** "1,250.00 RUB" for a payload's {@code amount_minor} and {@code currency}; null when it carries no amount. */
    static String of(JsonObject payload) {
        if (payload == null || !(payload.get("amount_minor") instanceof JsonNumber minor) || !payload.containsKey("currency")) {
            return null;
        }
        try {
            return format(FieldType.major(minor.longValueExact(), payload.getString("currency")), payload.getString("currency"));
        } catch (RuntimeException e) { // not an amount this gateway would have accepted: show it as stored
            return minor + " (minor units) " + payload.get("currency");
        }
    }

    static String format(BigDecimal amount, String currency) {
        DecimalFormat format = new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT));
        format.setMinimumFractionDigits(Math.max(0, amount.scale()));
        format.setMaximumFractionDigits(Math.max(0, amount.scale()));
        return format.format(amount) + " " + currency;
    }
}
