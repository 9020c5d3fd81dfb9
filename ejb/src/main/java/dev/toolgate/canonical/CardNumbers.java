package dev.toolgate.canonical;

import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds payment card numbers anywhere in a request, so that one is refused before it can reach the
 * journal or a log: 13–19 digits passing the Luhn check, written either as one run of digits or in
 * the groupings cards are printed in (4-4-4-4…, 4-6-5, 4-6-4) with one space or dash between groups.
 * Only those groupings: a looser "digits with any separators" rule also matched UUIDs whose groups
 * happen to be digits (about one random UUID key in 20,000), refusing a legitimate key.
 */
public final class CardNumbers {

    private static final Pattern DIGIT_RUN = Pattern.compile(
            "(?<![0-9])[0-9]{13,19}(?![0-9])"
            + "|(?<![0-9A-Za-z-])(?:[0-9]{4}([ -])[0-9]{4}\\1[0-9]{4}\\1[0-9]{1,7}|[0-9]{4}([ -])[0-9]{6}\\2[0-9]{4,5})(?![0-9A-Za-z-])");

    private CardNumbers() {
    }

    /** The path of the first value carrying a card number (e.g. {@code payload.description}), or null. */
    public static String find(String path, JsonValue value) {
        if (value instanceof JsonString s) {
            return contains(s.getString()) ? path : null;
        }
        if (value instanceof JsonNumber n) {
            return contains(n.toString()) ? path : null;
        }
        if (value.getValueType() == JsonValue.ValueType.OBJECT) {
            for (Map.Entry<String, JsonValue> field : value.asJsonObject().entrySet()) {
                String hit = find(path.isEmpty() ? field.getKey() : path + "." + field.getKey(), field.getValue());
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
        Matcher run = DIGIT_RUN.matcher(text);
        while (run.find()) {
            if (luhn(run.group().replace(" ", "").replace("-", ""))) {
                return true;
            }
        }
        return false;
    }

    static boolean luhn(String digits) {
        int sum = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(digits.length() - 1 - i) - '0';
            sum += i % 2 == 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d;
        }
        return sum % 10 == 0;
    }
}
