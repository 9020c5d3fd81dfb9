package dev.toolgate.targets.onec;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.toolgate.targets.TargetRequest;

final class OneCRequests {

    private static final Map<String, String> ENCODED_NAMES = new ConcurrentHashMap<>();

    private final OneCSettings settings;
    private final String authorization;

    OneCRequests(OneCSettings settings) {
        this.settings = settings;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(
                (settings.user() + ":" + settings.password()).getBytes(StandardCharsets.UTF_8));
    }

    TargetRequest set(String entitySet, String query) {
        return TargetRequest.get(URI.create(settings.url() + encode(entitySet) + "?$format=json" + query))
                .header("Authorization", authorization).header("Accept", "application/json");
    }

    /** A new record of {@code entitySet}: a document, or a status register's record. */
    TargetRequest create(String entitySet, String json) {
        return TargetRequest.post(URI.create(settings.url() + encode(entitySet) + "?$format=json"), json)
                .header("Authorization", authorization).header("Accept", "application/json")
                .header("Content-Type", "application/json");
    }

    TargetRequest record(String entitySet, String key) {
        return TargetRequest.get(URI.create(settings.url() + encode(entitySet) + key + "?$format=json"))
                .header("Authorization", authorization).header("Accept", "application/json");
    }

    TargetRequest document(String ref, String select) {
        return TargetRequest.get(URI.create(settings.url() + encode(settings.documentSet()) + "(guid'" + ref
                        + "')?$format=json&$select=" + select))
                .header("Authorization", authorization).header("Accept", "application/json");
    }

    /** Posting in the regular (not operational) mode. */
    TargetRequest posting(String ref) {
        return TargetRequest.post(URI.create(settings.url() + encode(settings.documentSet()) + "(guid'" + ref
                        + "')/Post?PostingModeOperational=false&$format=json"), null)
                .header("Authorization", authorization).header("Accept", "application/json");
    }

    /** {@code &$filter=<field> eq '<value>'}, with OData's quote doubling and URL encoding. */
    static String filter(String field, String value) {
        return "&$filter=" + condition(field, value);
    }

    /** {@code <field> eq '<value>'}, quotes doubled, URL-encoded: one alternative of a filter. */
    static String condition(String field, String value) {
        String expression = field + " eq '" + value.replace("'", "''") + "'";
        return URLEncoder.encode(expression, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Encoded conditions joined by {@code or}: {@code &$filter=a%20or%20b}. */
    static String anyOf(List<String> conditions) {
        return "&$filter=" + String.join(OR, conditions);
    }

    static final String OR = "%20or%20";

    /**
     * A name in a URL's path (1C's are Cyrillic), encoded once each (docs/benchmark.md, "Where the gateway's CPU goes"):
     * only names from the settings and this package's constants come here, never a value.
     */
    static String encode(String name) {
        return ENCODED_NAMES.computeIfAbsent(name, n -> URLEncoder.encode(n, StandardCharsets.UTF_8));
    }
}
