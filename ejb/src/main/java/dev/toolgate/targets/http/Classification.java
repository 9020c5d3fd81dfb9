package dev.toolgate.targets.http;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What an HTTP status (or a target's error code) proves, from configuration: {@code 429:retry,409:pending,5xx:unknown}.
 * Unlisted: 429 retry, 5xx unknown (a proxy's 502/503/504 says nothing about the upstream), other 4xx final. List a
 * status as {@code retry} only when the target's contract proves it means "not executed".
 */
public final class Classification {

    public enum Kind { RETRY, FINAL, UNKNOWN, PENDING }

    private final Map<String, Kind> rules = new LinkedHashMap<>();

    public Classification(String spec) {
        if (spec == null || spec.isBlank()) {
            return;
        }
        for (String rule : spec.split(",")) {
            String trimmed = rule.trim();
            int at = trimmed.lastIndexOf(':');
            if (at <= 0) {
                throw new IllegalArgumentException("a classification rule is <status|Nxx|code:CODE>:<retry|final|unknown|pending>: " + rule);
            }
            rules.put(trimmed.substring(0, at).trim(), Kind.valueOf(trimmed.substring(at + 1).trim().toUpperCase(Locale.ROOT)));
        }
    }

    public Kind of(int status, String errorCode) {
        if (errorCode != null && rules.containsKey("code:" + errorCode)) {
            return rules.get("code:" + errorCode);
        }
        Kind exact = rules.get(Integer.toString(status));
        if (exact != null) {
            return exact;
        }
        Kind family = rules.get(status / 100 + "xx");
        if (family != null) {
            return family;
        }
        if (status == 429) {
            return Kind.RETRY;
        }
        return status >= 500 ? Kind.UNKNOWN : Kind.FINAL;
    }
}
