package dev.toolgate.targets;

import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One request an adapter asks {@link TargetHttpClient} to send: a method, a URI, headers (a name set again replaces
 * its value) and a UTF-8 body or none. Adapters describe requests with it and nothing else, so the client that sends
 * them is a choice of {@code TargetHttpClient} alone.
 */
public final class TargetRequest {

    private final String method;
    private final URI uri;
    private final String body;
    private final Map<String, Map.Entry<String, String>> headers = new LinkedHashMap<>();

    private TargetRequest(String method, URI uri, String body) {
        this.method = method;
        this.uri = uri;
        this.body = body;
    }

    public static TargetRequest get(URI uri) {
        return new TargetRequest("GET", uri, null);
    }

    /** A POST; {@code body} null sends an empty one. */
    public static TargetRequest post(URI uri, String body) {
        return new TargetRequest("POST", uri, body);
    }

    /** Any method a target's configuration names (the generic adapter's {@code PUT}, {@code PATCH}, …). */
    public static TargetRequest of(String method, URI uri, String body) {
        return new TargetRequest(method, uri, body);
    }

    public TargetRequest header(String name, String value) {
        headers.put(name.toLowerCase(Locale.ROOT), Map.entry(name, value));
        return this;
    }

    public String method() {
        return method;
    }

    public URI uri() {
        return uri;
    }

    /** Null for a request without a body. */
    public String body() {
        return body;
    }

    /** By name as first set, each with its last value. */
    public Iterable<Map.Entry<String, String>> headers() {
        return Collections.unmodifiableCollection(headers.values());
    }
}
