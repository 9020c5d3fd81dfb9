package dev.toolgate.gateway.records;

import java.time.Instant;
import java.time.LocalDate;

/**
 * An instant as {@link Instant#toString} writes it ({@code 2026-12-06T07:02:06.123456Z}: UTC, the fraction in groups
 * of three digits, none when it is zero), without the general formatter: every answer carries three or four
 * instants, and the formatter was a quarter of the cost of writing a replay's answer (docs/benchmark.md).
 */
final class Timestamps {

    private static final long SECONDS_A_DAY = 86_400;
    /** 0000-01-01 and 9999-12-31: four-digit years, the only ones {@link Instant#toString} writes without a sign. */
    private static final long FIRST_DAY = LocalDate.of(0, 1, 1).toEpochDay();
    private static final long LAST_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

    private Timestamps() {
    }

    static String text(Instant at) {
        long day = Math.floorDiv(at.getEpochSecond(), SECONDS_A_DAY);
        if (day < FIRST_DAY || day > LAST_DAY) {
            return at.toString();
        }
        int second = (int) Math.floorMod(at.getEpochSecond(), SECONDS_A_DAY);
        LocalDate date = LocalDate.ofEpochDay(day);
        StringBuilder text = new StringBuilder(30);
        digits(text, date.getYear(), 4).append('-');
        digits(text, date.getMonthValue(), 2).append('-');
        digits(text, date.getDayOfMonth(), 2).append('T');
        digits(text, second / 3600, 2).append(':');
        digits(text, second / 60 % 60, 2).append(':');
        digits(text, second % 60, 2);
        int nanos = at.getNano();
        if (nanos != 0) {
            text.append('.');
            if (nanos % 1_000_000 == 0) {
                digits(text, nanos / 1_000_000, 3);
            } else if (nanos % 1_000 == 0) {
                digits(text, nanos / 1_000, 6);
            } else {
                digits(text, nanos, 9);
            }
        }
        return text.append('Z').toString();
    }

    /** {@code value} in exactly {@code width} decimal digits, zeros in front. */
    private static StringBuilder digits(StringBuilder text, int value, int width) {
        for (int place = width - 1, divisor = pow10(place); place >= 0; place--, divisor /= 10) {
            text.append((char) ('0' + value / divisor % 10));
        }
        return text;
    }

    private static int pow10(int exponent) {
        int power = 1;
        for (int i = 0; i < exponent; i++) {
            power *= 10;
        }
        return power;
    }
}
