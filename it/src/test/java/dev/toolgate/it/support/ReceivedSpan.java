package dev.toolgate.it.support;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One span as an OTLP exporter sent it to {@link OtlpReceiver}, in the terms a test asserts on: ids
 * as lower-case hex ({@code ""} when absent, as a root span's parent), the kind and status code
 * without their protobuf prefixes ({@code "SERVER"}, {@code "ERROR"}), every attribute value as a
 * string (an array's elements joined with commas).
 *
 * @param scope the name of the instrumentation scope that made the span (which library or module)
 * @param resource the attributes of the resource that exported it ({@code service.name}, …)
 */
public record ReceivedSpan(String traceId, String spanId, String parentSpanId, String name, String kind, String scope,
                           Map<String, String> attributes, Map<String, String> resource, List<Event> events,
                           List<Link> links, String statusCode, long startEpochNanos, long endEpochNanos) {

    public ReceivedSpan {
        attributes = frozen(attributes);
        resource = frozen(resource);
        events = List.copyOf(events);
        links = List.copyOf(links);
    }

    /** The attribute {@code key}'s value, or null when the span has none. */
    public String attribute(String key) {
        return attributes.get(key);
    }

    /** An event recorded on the span. */
    public record Event(String name, Map<String, String> attributes) {
        public Event {
            attributes = frozen(attributes);
        }
    }

    /** A link from the span to another span, ids in hex. */
    public record Link(String traceId, String spanId, Map<String, String> attributes) {
        public Link {
            attributes = frozen(attributes);
        }
    }

    /** Unmodifiable, in the exporter's order, so a failure's dump reads as sent. */
    private static Map<String, String> frozen(Map<String, String> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
