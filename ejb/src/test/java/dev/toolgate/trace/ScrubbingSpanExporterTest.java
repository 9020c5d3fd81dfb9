package dev.toolgate.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** What a real SDK's span looks like after the exporter that wraps the server's: its attributes and its events scrubbed. */
class ScrubbingSpanExporterTest {

    @Test
    void anExceptionEventQuotingACardNumberLeavesWithoutIt() {
        List<SpanData> exported = new ArrayList<>();
        try (SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(new ScrubbingSpanExporter(new Capturing(exported)))).build()) {
            Span span = provider.get("test").spanBuilder("resume").startSpan();
            span.setAttribute("toolgate.operation_key", "t:pay:4111111111111111:v1");
            span.recordException(new IllegalStateException("no operation t:pay:4111111111111111:v1"));
            span.end();
        }
        SpanData span = exported.get(0);
        assertEquals(ExportedAttributes.CARD_REMOVED, span.getAttributes().get(AttributeKey.stringKey("toolgate.operation_key")));
        assertEquals(ExportedAttributes.CARD_REMOVED, span.getEvents().get(0).getAttributes().get(AttributeKey.stringKey("exception.message")));
        assertEquals("java.lang.IllegalStateException", span.getEvents().get(0).getAttributes().get(AttributeKey.stringKey("exception.type")));
    }

    private record Capturing(List<SpanData> exported) implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            exported.addAll(spans);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
