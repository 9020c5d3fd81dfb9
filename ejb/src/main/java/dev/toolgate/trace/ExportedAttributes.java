package dev.toolgate.trace;

import dev.toolgate.canonical.CardNumbers;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.AttributeType;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;

import java.util.Set;

/**
 * What of a span's attributes may leave the gateway. Ours carry identifiers only; the servers' own server
 * spans record the request's URL as the agent sent it, and a query string or a path can hold what an agent
 * should never have sent (a card number in a key, a reason in {@code ?reason=}). So: a URL loses its query,
 * {@code url.query} is dropped, and a URL or path that carries a card number is replaced by a marker.
 *
 * <pre>
 * attribute                               → exported as
 * url.query                               → (dropped)
 * http.url, url.full, http.target         → without "?…"; [removed: card number] if what is left carries one
 * url.path                                → as is; [removed: card number] if it carries one
 * anything else                           → as is
 * </pre>
 */
final class ExportedAttributes {

    static final String CARD_REMOVED = "[removed: card number]";
    private static final AttributeKey<String> QUERY = AttributeKey.stringKey("url.query");
    private static final Set<String> URLS = Set.of("http.url", "url.full", "http.target");
    private static final String PATH = "url.path";

    private ExportedAttributes() {
    }

    /** {@code attributes} as they may be exported; the same instance when nothing needs to change. */
    static Attributes scrub(Attributes attributes) {
        if (!needsScrubbing(attributes)) {
            return attributes;
        }
        AttributesBuilder scrubbed = Attributes.builder();
        attributes.forEach((key, value) -> {
            if (key.equals(QUERY)) {
                return;
            }
            if (key.getType() == AttributeType.STRING && (URLS.contains(key.getKey()) || PATH.equals(key.getKey()))) {
                String text = (String) value;
                if (URLS.contains(key.getKey()) && text.indexOf('?') >= 0) {
                    text = text.substring(0, text.indexOf('?'));
                }
                scrubbed.put(AttributeKey.stringKey(key.getKey()), CardNumbers.contains(text) ? CARD_REMOVED : text);
                return;
            }
            @SuppressWarnings("unchecked")
            AttributeKey<Object> any = (AttributeKey<Object>) key;
            scrubbed.put(any, value);
        });
        return scrubbed.build();
    }

    private static boolean needsScrubbing(Attributes attributes) {
        for (AttributeKey<?> key : attributes.asMap().keySet()) {
            if (key.equals(QUERY) || URLS.contains(key.getKey()) || PATH.equals(key.getKey())) {
                return true;
            }
        }
        return false;
    }
}
