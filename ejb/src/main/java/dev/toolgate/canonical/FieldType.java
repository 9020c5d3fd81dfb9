package dev.toolgate.canonical;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Currency;
import java.util.Locale;
import java.util.regex.Pattern;

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
            if (s.chars().anyMatch(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f))) { // C0, DEL and C1
                throw InvalidCommand.payload(field, "must not contain control characters");
            }
            return value;
        }
    },

    /** Positive integer of minor units, at most {@link #MAX_MINOR}; fractions refused, never rounded; 1e2 is its value. */
    MINOR_AMOUNT {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            if (!(value instanceof JsonNumber number)) {
                throw InvalidCommand.payload(field, "must be an integer number of minor units");
            }
            BigDecimal amount = number.bigDecimalValue();
            if (amount.scale() > 0) { // 1250.5 and 125000.0 alike: the caller must say minor units
                throw InvalidCommand.payload(field, "must be an integer number of minor units, without a fraction part");
            }
            if (amount.signum() <= 0) {
                throw InvalidCommand.payload(field, "must be positive");
            }
            if (amount.compareTo(BigDecimal.valueOf(MAX_MINOR)) > 0) {
                throw InvalidCommand.payload(field, "must be at most " + MAX_MINOR + " minor units");
            }
            return JSON.createValue(amount.longValueExact());
        }
    },

    /** ISO 4217 alphabetic code, normalized to upper case. */
    CURRENCY {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            String sent = string(field, value);
            String code = sent.toUpperCase(Locale.ROOT);
            // checked before upper-casing too: "ınr" (dotless ı) upper-cases to INR but is not its lower case
            if (!Shapes.CURRENCY.matcher(sent).matches() || !isIso4217(code)) {
                throw InvalidCommand.payload(field, "must be an ISO 4217 currency code such as RUB");
            }
            return JSON.createValue(code);
        }
    },

    /** An instant with an explicit offset (a local time is ambiguous), normalized to UTC, within {@link #EARLIEST}..{@link #LATEST}. */
    TIMESTAMP {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            Instant instant;
            try {
                instant = OffsetDateTime.parse(string(field, value)).toInstant();
            } catch (DateTimeException e) {
                throw InvalidCommand.payload(field, "must be an ISO-8601 timestamp with an offset, e.g. 2026-12-01T12:00:00+03:00");
            }
            if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
                throw InvalidCommand.payload(field, "must lie between " + EARLIEST + " and " + LATEST);
            }
            return JSON.createValue(DateTimeFormatter.ISO_INSTANT.format(instant));
        }
    },

    /** An option off by default: {@code false} is normalized away, so sending it and leaving it out are one intent. */
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
            if (!Shapes.INN.matcher(s).matches()) {
                throw InvalidCommand.payload(field, "must be 10 or 12 digits");
            }
            return value;
        }
    },

    /** A GUID (a 1C {@code Ref_Key}) in lower case as 1C writes it; anything else is refused before it reaches a URL. */
    GUID {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            String s = string(field, value);
            if (!Shapes.GUID.matcher(s).matches()) {
                throw InvalidCommand.payload(field, "must be a GUID such as 5e1d7a3c-0643-4f00-8000-000000000643");
            }
            return JSON.createValue(s.toLowerCase(Locale.ROOT));
        }
    },

    /** A numeric id kept as text, no sign or leading zero ({@code 007} and {@code 7} are one deal), ≤ {@code maxLength} digits. */
    NUMERIC_ID {
        @Override
        JsonValue normalize(String field, JsonValue value, int maxLength) {
            String s = string(field, value);
            if (!Shapes.NUMERIC_ID.matcher(s).matches() || s.length() > maxLength) {
                throw InvalidCommand.payload(field, "must be a positive integer id of at most " + maxLength
                        + " digits, as a string without leading zeros, e.g. \"4711\"");
            }
            return value;
        }
    };

    /** 1C's sums are Number(15, 2), and below 2^53 a target reading JSON numbers as doubles holds it exactly (RFC 7493 §2.2). */
    public static final long MAX_MINOR = 999_999_999_999_999L;

    /** 1C keeps dates 0001-01-01..3999-12-31; a day's margin keeps the local date inside whatever the zone (±18:00). */
    static final Instant EARLIEST = Instant.parse("0001-01-02T00:00:00Z");
    static final Instant LATEST = Instant.parse("3999-12-30T23:59:59Z");

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

    /** Compiled once: an enum constant's body cannot hold a static field of its own. */
    private static final class Shapes {
        static final Pattern CURRENCY = Pattern.compile("[A-Za-z]{3}");
        static final Pattern INN = Pattern.compile("\\d{10}|\\d{12}");
        static final Pattern GUID = Pattern.compile("[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}");
        static final Pattern NUMERIC_ID = Pattern.compile("[1-9][0-9]*");
    }
}
