package dev.toolgate.canonical;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Currency;
import java.util.Locale;

/** How a payload field is validated and normalized before it is fingerprinted. */
public enum FieldType {

    /** Free text: kept exactly as sent (trimming would silently merge two intents). */
    TEXT {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            String s = string(field, value);
            if (s.isBlank()) {
                throw InvalidCommand.payload(field, "must not be blank");
            }
            if (s.length() > maxLength) {
                throw InvalidCommand.payload(field, "must be at most " + maxLength + " characters");
            }
            if (s.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                throw InvalidCommand.payload(field, "must not contain control characters");
            }
            return value;
        }
    },

    /** Money as a positive integer of minor units (kopecks, cents); fractions are refused, never rounded. */
    MINOR_AMOUNT {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            if (!(value instanceof JsonNumber number)) {
                throw InvalidCommand.payload(field, "must be an integer number of minor units");
            }
            BigDecimal amount = number.bigDecimalValue();
            if (amount.scale() != 0) { // 1250.5 and 125000.0 alike: the caller must say minor units
                throw InvalidCommand.payload(field, "must be an integer number of minor units, not " + number);
            }
            if (amount.signum() <= 0) {
                throw InvalidCommand.payload(field, "must be positive");
            }
            try {
                return JSON.createValue(amount.longValueExact());
            } catch (ArithmeticException e) {
                throw InvalidCommand.payload(field, "is too large");
            }
        }
    },

    /** ISO 4217 alphabetic code, normalized to upper case. */
    CURRENCY {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            String code = string(field, value).toUpperCase(Locale.ROOT);
            if (!code.matches("[A-Z]{3}") || !isIso4217(code)) {
                throw InvalidCommand.payload(field, "must be an ISO 4217 currency code such as RUB");
            }
            return JSON.createValue(code);
        }
    },

    /** An instant with an explicit offset, normalized to UTC; a local time is ambiguous and refused. */
    TIMESTAMP {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            try {
                OffsetDateTime t = OffsetDateTime.parse(string(field, value));
                return JSON.createValue(DateTimeFormatter.ISO_INSTANT.format(t.withOffsetSameInstant(ZoneOffset.UTC)));
            } catch (DateTimeException e) {
                throw InvalidCommand.payload(field, "must be an ISO-8601 timestamp with an offset, e.g. 2026-12-01T12:00:00+03:00");
            }
        }
    },

    /**
     * A yes/no option that is off by default: {@code false} is normalized away, so sending it and
     * leaving the field out are one intent with one fingerprint.
     */
    FLAG {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            if (value == JsonValue.TRUE) {
                return value;
            }
            if (value == JsonValue.FALSE) {
                return null;
            }
            throw InvalidCommand.payload(field, "must be true or false");
        }
    },

    /** Russian taxpayer number: 10 digits for an organization, 12 for a person. */
    INN {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            String s = string(field, value);
            if (!s.matches("\\d{10}|\\d{12}")) {
                throw InvalidCommand.payload(field, "must be 10 or 12 digits");
            }
            return value;
        }
    };

    abstract JsonValue normalize(String field, JsonValue value, int maxLength);

    /** A {@link #MINOR_AMOUNT} in major units of its currency (kopecks → rubles), for targets that want those. */
    public static BigDecimal major(long minor, String currency) {
        return BigDecimal.valueOf(minor, Math.max(0, Currency.getInstance(currency).getDefaultFractionDigits()));
    }

    private static String string(String field, JsonValue value) {
        if (!(value instanceof JsonString s)) {
            throw InvalidCommand.payload(field, "must be a string");
        }
        return s.getString();
    }

    private static boolean isIso4217(String code) {
        try {
            Currency.getInstance(code);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
