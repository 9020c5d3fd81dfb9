package dev.toolgate.canonical;

import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Finds payment card numbers anywhere in a request, so one is refused before it reaches the journal or a log:
 * 13–19 digits (ISO/IEC 7812) passing Luhn, in one run or in groups split by up to {@link #MAX_GAP} non-alphanumerics,
 * in any script's decimal digits, after NFKC. UUIDs, traceparents, hex ids and timestamps are set aside first: their
 * digits can pass Luhn by chance. A bare 13–19 digit id that passes Luhn cannot be told apart and is refused.
 */
public final class CardNumbers {

    static final int MIN_DIGITS = 13;
    static final int MAX_DIGITS = 19;
    /** " - ", ", " or a double space fit; a longer gap separates two numbers rather than groups of one. */
    static final int MAX_GAP = 4;

    private static final String NOT_ALNUM_BEFORE = "(?<![\\p{IsAlphabetic}\\p{IsDigit}])";
    private static final String NOT_ALNUM_AFTER = "(?![\\p{IsAlphabetic}\\p{IsDigit}])";
    private static final Pattern IDENTIFIERS = Pattern.compile(NOT_ALNUM_BEFORE + "(?:"
            + "\\p{XDigit}{8}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{12}" // RFC 9562 UUID
            + "|\\p{XDigit}{2}-\\p{XDigit}{32}-\\p{XDigit}{16}-\\p{XDigit}{2}" // W3C Trace Context traceparent
            // a hex id (20+ characters: hashes, object ids) holding both letters and digits; a shorter word is
            // no id, and a card number with a few hex letters glued on ("cc4111…") is still found
            + "|((?=\\p{XDigit}*[A-Fa-f])(?=\\p{XDigit}*[0-9])\\p{XDigit}{20,})"
            + "|[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?(?:[Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)?"
            + ")" + NOT_ALNUM_AFTER);

    /** The hex-id group of {@link #IDENTIFIERS}: the only capturing group (no named groups in a MatchResult before Java 20). */
    private static final int HEX_ID = 1;
    /**
     * A hex word this long (a trace id, an MD5, a SHA-256) is an id whatever digits it holds: fingerprints and trace ids
     * come back to the gateway, and one SHA-256 in 240 holds a run that passes Luhn.
     */
    static final int WHOLE_ID = 32;
    private static final Pattern CARD_RUN = Pattern.compile("(?<![0-9])[0-9]{" + MIN_DIGITS + "," + MAX_DIGITS + "}(?![0-9])");

    /** No-break space, guillemets, dashes, curly quotes, the numero sign (NFKC: "No"). */
    static final String PLAIN_PUNCTUATION = "\u00a0«»–—‘’“”„№";

    private CardNumbers() {
    }

    /** The path of the first value or member name carrying a card number (a member name by its parent's path), or null. */
    public static String find(String path, JsonValue value) {
        if (value instanceof JsonString s) {
            return contains(s.getString()) ? path : null;
        }
        if (value instanceof JsonNumber n) {
            return contains(n.toString()) ? path : null;
        }
        if (value.getValueType() == JsonValue.ValueType.OBJECT) {
            for (Map.Entry<String, JsonValue> field : value.asJsonObject().entrySet()) {
                String hit = contains(field.getKey()) ? (path.isEmpty() ? "" : path + ".") + "(a member name)"
                        : find(path.isEmpty() ? field.getKey() : path + "." + field.getKey(), field.getValue());
                if (hit != null) {
                    return hit;
                }
            }
        }
        if (value.getValueType() == JsonValue.ValueType.ARRAY) {
            for (int i = 0; i < value.asJsonArray().size(); i++) {
                String hit = find(path + "[" + i + "]", value.asJsonArray().get(i));
                if (hit != null) {
                    return hit;
                }
            }
        }
        return null;
    }

    public static boolean contains(String text) {
        return !tooFewDigits(text) && search(text);
    }

    /**
     * Plainly too few digits for a card number: no run of digit groups that {@link #search} would join (groups parted by
     * at most {@link #MAX_GAP} characters that are neither letters nor digits) holds {@link #MIN_DIGITS}, and no
     * character could normalize to a digit or vanish. Most values are such — keys, ids, dates, prose — and skip the
     * normalization and identifier pattern, the costliest part of the check. Setting identifiers aside only parts groups
     * further, so a run too short here is too short there.
     */
    static boolean tooFewDigits(String text) {
        int digits = 0; // in the run of groups so far
        int gap = 0; // characters since its last digit
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                if (++digits >= MIN_DIGITS) {
                    return false;
                }
                gap = 0;
            } else if (c < 0x80 ? Character.isLetter(c) : c >= 0x0400 && c <= 0x04FF && Character.isLetter(c)) {
                digits = 0; // a letter parts groups, and NFKC keeps a Cyrillic letter a letter
            } else if (c >= 0x80 && PLAIN_PUNCTUATION.indexOf(c) < 0) {
                return false; // may normalize to a digit, or vanish and join two groups: searched
            } else if (++gap > MAX_GAP) {
                digits = 0; // NFKC leaves these one character each, or makes letters of them (№): never a shorter gap
            }
        }
        return true;
    }

    static boolean search(String text) {
        // set aside as a letter, which ends a run of groups; a hex id that holds a card-length run of digits is searched
        String s = IDENTIFIERS.matcher(normalize(text)).replaceAll(id -> id.group(HEX_ID) != null && id.group().length() < WHOLE_ID
                && CARD_RUN.matcher(id.group()).find() ? id.group() : "x"); // a hex word holds no '$' or '\\' for the replacement to read
        List<String> groups = new ArrayList<>();
        for (int i = 0, end; i < s.length(); i = end) {
            end = runEnd(s, i);
            if (isAsciiDigit(s.charAt(i))) {
                groups.add(s.substring(i, end));
            } else if (!separates(s.substring(i, end))) {
                if (cardIn(groups)) {
                    return true;
                }
                groups.clear();
            }
        }
        return cardIn(groups);
    }

    private static int runEnd(String s, int from) {
        boolean digit = isAsciiDigit(s.charAt(from));
        int end = from;
        while (end < s.length() && isAsciiDigit(s.charAt(end)) == digit) {
            end++;
        }
        return end;
    }

    /** NFKC, format characters dropped, every decimal digit of any script as its ASCII digit. */
    static String normalize(String text) {
        if (isAscii(text)) { // NFKC leaves ASCII as it is, and ASCII holds no format character and no other script's digit
            return text;
        }
        String nfkc = Normalizer.normalize(text, Normalizer.Form.NFKC);
        StringBuilder out = new StringBuilder(nfkc.length());
        nfkc.codePoints().forEach(c -> {
            if (Character.isDigit(c)) {
                out.append((char) ('0' + Character.digit(c, 10)));
            } else if (Character.getType(c) != Character.FORMAT) {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    private static boolean separates(String gap) {
        return gap.codePointCount(0, gap.length()) <= MAX_GAP && gap.codePoints().noneMatch(Character::isLetter);
    }

    private static boolean cardIn(List<String> groups) {
        for (int first = 0; first < groups.size(); first++) {
            StringBuilder candidate = new StringBuilder();
            for (int last = first; last < groups.size() && candidate.length() + groups.get(last).length() <= MAX_DIGITS; last++) {
                candidate.append(groups.get(last));
                if (candidate.length() >= MIN_DIGITS && luhn(candidate)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean luhn(CharSequence digits) {
        int sum = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(digits.length() - 1 - i) - '0';
            sum += i % 2 == 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d;
        }
        return sum % 10 == 0;
    }
}
