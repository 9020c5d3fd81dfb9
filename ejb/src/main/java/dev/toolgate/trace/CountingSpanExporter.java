package dev.toolgate.trace;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.util.Collection;

/** The server's span exporter, with what it delivered and what it dropped counted ({@link SpanExports}). */
final class CountingSpanExporter implements SpanExporter {

    private final SpanExporter exporter;

    CountingSpanExporter(SpanExporter exporter) {
        this.exporter = exporter;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        int count = spans.size();
        CompletableResultCode result;
        try {
            result = exporter.export(spans);
        } catch (RuntimeException e) { // an exporter that throws has dropped the batch as surely as one that fails
            SpanExports.dropped(count);
            return CompletableResultCode.ofFailure();
        }
        result.whenComplete(() -> {
            if (result.isSuccess()) {
                SpanExports.exported(count);
            } else {
                SpanExports.dropped(count);
            }
        });
        return result;
    }

    @Override
    public CompletableResultCode flush() {
        return exporter.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
        return exporter.shutdown();
    }

    @Override
    public String toString() {
        return "CountingSpanExporter{" + exporter + "}";
    }
}
