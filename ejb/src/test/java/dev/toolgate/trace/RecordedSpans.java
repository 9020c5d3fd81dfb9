package dev.toolgate.trace;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

import java.util.List;

/** A real OpenTelemetry SDK recording every span the gateway's code ends into memory, handed to {@link Spans}; closing it turns tracing off again. */
public final class RecordedSpans implements AutoCloseable {

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build()).build();

    private RecordedSpans() {
    }

    public static RecordedSpans start() {
        RecordedSpans recorded = new RecordedSpans();
        Spans.exporting(true); // as the server's autoconfiguration does when it takes our exporter wrapper
        Spans.use(recorded.sdk);
        return recorded;
    }

    public List<SpanData> finished() {
        return exported.getFinishedSpanItems();
    }

    public void reset() {
        exported.reset();
    }

    @Override
    public void close() {
        Spans.exporting(false);
        Spans.use(OpenTelemetry.noop());
        sdk.getSdkTracerProvider().close();
    }
}
