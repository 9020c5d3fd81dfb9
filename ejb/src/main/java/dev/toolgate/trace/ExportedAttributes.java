package dev.toolgate.trace;

import dev.toolgate.canonical.CardNumbers;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.AttributeType;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What of a span's attributes may leave the gateway: the second line behind the edge's checks, for server spans'
 * URLs, exception messages and a missed check. A URL loses its query and any text carrying a card number is masked.
 */
final class ExportedAttributes {

    static final String CARD_REMOVED = "[removed: card number]";
    private static final AttributeKey<String> QUERY = AttributeKey.stringKey("url.query");
    private static final Set<String> URLS = Set.of("http.url", "url.full", "http.target");

    private ExportedAttributes() {
    }

    /** The same instance when nothing needs to change, so the common span is not rebuilt. */
    static Attributes scrub(Attributes attributes) {
        if (!needsScrubbing(attributes)) {
            return attributes;
        }
        AttributesBuilder scrubbed = Attributes.builder();
        attributes.forEach((key, value) -> {
            if (key.equals(QUERY)) {
                return;
            }
            if (key.getType() == AttributeType.STRING) {
                scrubbed.put(AttributeKey.stringKey(key.getKey()), scrubbed(key.getKey(), (String) value));
                return;
            }
            if (key.getType() == AttributeType.STRING_ARRAY) {
                List<String> texts = new ArrayList<>();
                for (Object text : (List<?>) value) {
                    texts.add(scrubbed("", (String) text));
                }
                scrubbed.put(AttributeKey.stringArrayKey(key.getKey()), texts);
                return;
            }
            @SuppressWarnings("unchecked")
            AttributeKey<Object> any = (AttributeKey<Object>) key;
            scrubbed.put(any, value);
        });
        return scrubbed.build();
    }

    private static String scrubbed(String key, String text) {
        if (URLS.contains(key) && text.indexOf('?') >= 0) {
            text = text.substring(0, text.indexOf('?'));
        }
        return CardNumbers.contains(text) ? CARD_REMOVED : text;
    }

    private static boolean needsScrubbing(Attributes attributes) {
        boolean[] needs = {false};
        attributes.forEach((key, value) -> {
            if (needs[0]) {
                return;
            }
            if (key.equals(QUERY)) {
                needs[0] = true;
            } else if (key.getType() == AttributeType.STRING) { // a URL without a query is left as is unless it carries a card
                String text = (String) value;
                needs[0] = URLS.contains(key.getKey()) && text.indexOf('?') >= 0 || CardNumbers.contains(text);
            } else if (key.getType() == AttributeType.STRING_ARRAY) {
                needs[0] = ((List<?>) value).stream().anyMatch(text -> CardNumbers.contains((String) text));
            }
        });
        return needs[0];
    }
}
