package dev.toolgate.canonical;

import static dev.toolgate.canonical.InvalidCommand.Reason.NOT_I_JSON;

import java.math.BigDecimal;

/** The RFC 7493 rules for one string or number, applied by {@link IJsonReader} as it reads them. */
final class IJsonRules {

    /** Longer than any double's shortest form (17 digits, sign, point, exponent) by far: precision nobody keeps. */
    private static final int MAX_LENGTH = 64;

    private IJsonRules() {
    }

    /** Scalar values only, no noncharacter (§2.1): a lone surrogate would encode as '?', so two strings would fingerprint alike. */
    static String scalarValues(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                if (isNoncharacter(Character.toCodePoint(c, s.charAt(++i)))) {
                    throw noncharacter();
                }
            } else if (Character.isSurrogate(c)) {
                throw new InvalidCommand(NOT_I_JSON, "a string holds a lone surrogate, which is not Unicode text (RFC 7493 §2.1)");
            } else if (isNoncharacter(c)) {
                throw noncharacter();
            }
        }
        return s;
    }

    /** U+FDD0..U+FDEF and the last two code points of every plane (Unicode §23.7). */
    static boolean isNoncharacter(int codePoint) {
        return (codePoint >= 0xFDD0 && codePoint <= 0xFDEF) || (codePoint & 0xFFFE) == 0xFFFE;
    }

    /** The literal's value, when an IEEE 754 double can hold its magnitude (§2.2); its exactness is the field's business. */
    static BigDecimal number(String literal) {
        if (literal.length() > MAX_LENGTH) {
            throw new InvalidCommand(NOT_I_JSON, "a number is longer than " + MAX_LENGTH + " characters (RFC 7493 §2.2)");
        }
        BigDecimal value;
        try {
            value = new BigDecimal(literal);
        } catch (NumberFormatException e) { // an exponent beyond int range
            throw outOfRange();
        }
        double approximation = Double.parseDouble(literal);
        if (Double.isInfinite(approximation) || (approximation == 0 && value.signum() != 0)) {
            throw outOfRange();
        }
        return value;
    }

    private static InvalidCommand noncharacter() {
        return new InvalidCommand(NOT_I_JSON, "a string holds a Unicode noncharacter (RFC 7493 §2.1)");
    }

    private static InvalidCommand outOfRange() {
        return new InvalidCommand(NOT_I_JSON, "a number is beyond the range of an IEEE 754 double (RFC 7493 §2.2)");
    }
}
