package dev.toolgate.targets.http;

import dev.toolgate.targets.RequestTimeouts;
import dev.toolgate.targets.tls.TlsSettings;
import org.eclipse.microprofile.config.Config;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/** A target described under {@code toolgate.target.<system>.http.} (docs/targets.md); {@link #toString()} never prints credentials. */
public record HttpTargetSettings(String method, Template url, Template body, String auth, String user, String password,
                                 String token, String headerName, String headerValue, String idempotencyHeader,
                                 Duration dedupWindow, Set<Integer> successStatuses, String idPointer, String statusPointer,
                                 String statusMap, String errorCodePointer, String retryAfterPointer, Classification classification,
                                 String lookupMethod, Template lookupUrl, String itemsPointer, String lookupIdPointer,
                                 String lookupStatusPointer, Duration connectTimeout, Duration readTimeout, String host,
                                 TlsSettings tls) {

    public static HttpTargetSettings from(Config config, String system) {
        return from(name -> config.getOptionalValue(name, String.class), system);
    }

    public static HttpTargetSettings from(Function<String, Optional<String>> values, String system) {
        String p = "toolgate.target." + system + ".http.";
        Function<String, String> get = name -> values.apply(p + name).orElse(null);
        Function<String, String> required = name -> values.apply(p + name)
                .orElseThrow(() -> new IllegalArgumentException(p + name + " is required for the generic HTTP adapter"));
        String url = required.apply("url");
        String auth = or(get.apply("auth"), "none").toLowerCase(Locale.ROOT);
        if (!Set.of("none", "basic", "bearer", "header").contains(auth)) {
            throw new IllegalArgumentException(p + "auth is none, basic, bearer or header");
        }
        String idPointer = required.apply("id-pointer");
        return new HttpTargetSettings(
                or(get.apply("method"), "POST").toUpperCase(Locale.ROOT),
                new Template(url),
                get.apply("body") == null ? null : new Template(get.apply("body")),
                auth,
                or(get.apply("user"), ""), or(get.apply("password"), ""), or(get.apply("token"), ""),
                or(get.apply("header-name"), ""), or(get.apply("header-value"), ""),
                get.apply("idempotency-header"),
                Duration.ofHours(Long.parseLong(or(get.apply("dedup-window-hours"), "0"))),
                Arrays.stream(or(get.apply("success-statuses"), "200,201").split(",")).map(String::trim)
                        .map(Integer::valueOf).collect(Collectors.toUnmodifiableSet()),
                idPointer,
                get.apply("status-pointer"),
                or(get.apply("status-map"), ""),
                get.apply("error-code-pointer"),
                get.apply("retry-after-pointer"),
                new Classification(get.apply("classify")),
                or(get.apply("lookup.method"), "GET").toUpperCase(Locale.ROOT),
                new Template(required.apply("lookup.url")),
                get.apply("lookup.items-pointer"),
                or(get.apply("lookup.id-pointer"), idPointer),
                or(get.apply("lookup.status-pointer"), get.apply("status-pointer")),
                Duration.ofMillis(Long.parseLong(or(get.apply("connect-timeout-ms"), Long.toString(RequestTimeouts.DEFAULT_CONNECT_MS)))),
                Duration.ofMillis(Long.parseLong(or(get.apply("read-timeout-ms"), Long.toString(RequestTimeouts.DEFAULT_READ_MS)))),
                URI.create(url.replaceAll("\\{\\{[^}]*}}", "x")).getHost(),
                TlsSettings.from(values, system));
    }

    private static String or(String value, String fallback) {
        return value == null ? fallback : value;
    }

    /** Our status for a target's status value: {@code succeeded}, {@code pending}, {@code failed}, or null when unmapped. */
    public String mapStatus(String targetStatus) {
        if (targetStatus == null || statusMap.isBlank()) { // no status to read: the success rule alone decides
            return "succeeded";
        }
        for (String pair : statusMap.split(",")) {
            int at = pair.lastIndexOf(':');
            if (at > 0 && pair.substring(0, at).trim().equals(targetStatus)) {
                return pair.substring(at + 1).trim();
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "HttpTargetSettings[host=" + host + ", method=" + method + ", auth=" + auth + "]";
    }
}
