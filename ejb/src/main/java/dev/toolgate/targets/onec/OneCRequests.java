package dev.toolgate.targets.onec;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

final class OneCRequests {

    private final OneCSettings settings;
    private final String authorization;

    OneCRequests(OneCSettings settings) {
        this.settings = settings;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(
                (settings.user() + ":" + settings.password()).getBytes(StandardCharsets.UTF_8));
    }

    HttpRequest.Builder set(String entitySet, String query) {
        return HttpRequest.newBuilder(URI.create(settings.url() + encode(entitySet) + "?$format=json" + query))
                .header("Authorization", authorization).header("Accept", "application/json");
    }

    HttpRequest.Builder record(String entitySet, String key) {
        return HttpRequest.newBuilder(URI.create(settings.url() + encode(entitySet) + key + "?$format=json"))
                .header("Authorization", authorization).header("Accept", "application/json");
    }

    HttpRequest.Builder document(String ref, String select) {
        return HttpRequest.newBuilder(URI.create(settings.url() + encode(settings.documentSet()) + "(guid'" + ref
                        + "')?$format=json&$select=" + select))
                .header("Authorization", authorization).header("Accept", "application/json");
    }

    /** Posting in the regular (not operational) mode. */
    HttpRequest.Builder posting(String ref) {
        return HttpRequest.newBuilder(URI.create(settings.url() + encode(settings.documentSet()) + "(guid'" + ref
                        + "')/Post?PostingModeOperational=false&$format=json"))
                .header("Authorization", authorization).header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.noBody());
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

    /** A name in a URL's path: 1C's entity and field names are Cyrillic. */
    static String encode(String pathPart) {
        return URLEncoder.encode(pathPart, StandardCharsets.UTF_8);
    }
}
