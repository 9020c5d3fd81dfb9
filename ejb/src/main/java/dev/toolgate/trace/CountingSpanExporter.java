package dev.toolgate.trace;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.util.Collection;
import java.util.function.LongSupplier;

/** The server's span exporter, counted ({@link SpanExports}) and left alone for a while after a failure ({@link ExportBackoff}). */
final class CountingSpanExporter implements SpanExporter {

    private final SpanExporter exporter;
    private final LongSupplier nanoTime;
    private ExportBackoff backoff = ExportBackoff.none();
    private long retryAt;

    CountingSpanExporter(SpanExporter exporter) {
        this(exporter, System::nanoTime);
    }

    CountingSpanExporter(SpanExporter exporter, LongSupplier nanoTime) {
        this.exporter = exporter;
        this.nanoTime = nanoTime;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        int count = spans.size();
        if (pausing()) {
            SpanExports.dropped(count);
            return CompletableResultCode.ofFailure();
        }
        CompletableResultCode result;
        try {
            result = exporter.export(spans);
        } catch (RuntimeException e) { // an exporter that throws has dropped the batch as surely as one that fails
            SpanExports.dropped(count);
            failed();
            return CompletableResultCode.ofFailure();
        }
        result.whenComplete(() -> {
            if (result.isSuccess()) {
                SpanExports.exported(count);
                succeeded();
            } else {
                SpanExports.dropped(count);
                failed();
            }
        });
        return result;
    }

    private synchronized boolean pausing() {
        return backoff.failures() > 0 && nanoTime.getAsLong() - retryAt < 0;
    }

    private synchronized void failed() {
        backoff = backoff.failed();
        retryAt = nanoTime.getAsLong() + backoff.pause().toNanos();
    }

    private synchronized void succeeded() {
        backoff = ExportBackoff.none();
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
