package dev.toolgate.trace;

import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizer;
import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizerProvider;
import jakarta.enterprise.inject.Vetoed;

/**
 * Wraps whatever span exporter the server's SDK configures: what leaves is scrubbed
 * ({@link ScrubbingSpanExporter}: the servers' own spans record request URLs with their query strings) and
 * counted ({@link CountingSpanExporter}). Both servers build the application's SDK with OpenTelemetry's
 * autoconfiguration and the application's class loader for its service providers (Payara's
 * {@code OpenTelemetryService}, WildFly's SmallRye producer), which finds this one through
 * {@code META-INF/services}. Nothing else of the server's pipeline changes: its batching, its bounded queue
 * and its exporter stay as configured. (Each configured exporter is wrapped: with two, a span counts twice.)
 */
@Vetoed
public final class SpanExportCustomizer implements AutoConfigurationCustomizerProvider {

    @Override
    public void customize(AutoConfigurationCustomizer autoConfiguration) {
        autoConfiguration.addSpanExporterCustomizer((exporter, config) -> {
            Spans.exporting(true);
            return new CountingSpanExporter(new ScrubbingSpanExporter(exporter));
        });
    }
}
