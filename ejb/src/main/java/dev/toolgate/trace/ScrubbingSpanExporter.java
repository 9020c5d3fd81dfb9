package dev.toolgate.trace;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.DelegatingSpanData;
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
            scrubbed.add(attributes == span.getAttributes() ? span : new Scrubbed(span, attributes));
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

    private static final class Scrubbed extends DelegatingSpanData {
        private final Attributes attributes;

        Scrubbed(SpanData span, Attributes attributes) {
            super(span);
            this.attributes = attributes;
        }

        @Override
        public Attributes getAttributes() {
            return attributes;
        }
    }
}
