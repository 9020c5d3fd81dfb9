package dev.toolgate.trace;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.DelegatingSpanData;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The server's span exporter, handed each span's attributes as {@link ExportedAttributes} lets them leave. */
final class ScrubbingSpanExporter implements SpanExporter {

    private final SpanExporter exporter;

    ScrubbingSpanExporter(SpanExporter exporter) {
        this.exporter = exporter;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        List<SpanData> scrubbed = new ArrayList<>(spans.size());
        for (SpanData span : spans) {
            Attributes attributes = ExportedAttributes.scrub(span.getAttributes());
            List<EventData> events = scrubbed(span.getEvents());
            scrubbed.add(attributes == span.getAttributes() && events == span.getEvents() ? span : new Scrubbed(span, attributes, events));
        }
        return exporter.export(scrubbed);
    }

    @Override
    public CompletableResultCode flush() {
        return exporter.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
        return exporter.shutdown();
    }

    /** An exception event's message, say, scrubbed like the span's own attributes; the same list when none changed. */
    private static List<EventData> scrubbed(List<EventData> events) {
        List<EventData> scrubbed = null;
        for (int i = 0; i < events.size(); i++) {
            EventData event = events.get(i);
            Attributes attributes = ExportedAttributes.scrub(event.getAttributes());
            if (attributes != event.getAttributes()) {
                if (scrubbed == null) {
                    scrubbed = new ArrayList<>(events);
                }
                scrubbed.set(i, EventData.create(event.getEpochNanos(), event.getName(), attributes, event.getTotalAttributeCount()));
            }
        }
        return scrubbed == null ? events : scrubbed;
    }

    private static final class Scrubbed extends DelegatingSpanData {
        private final Attributes attributes;
        private final List<EventData> events;

        Scrubbed(SpanData span, Attributes attributes, List<EventData> events) {
            super(span);
            this.attributes = attributes;
            this.events = events;
        }

        @Override
        public Attributes getAttributes() {
            return attributes;
        }

        @Override
        public List<EventData> getEvents() {
            return events;
        }
    }
}
