package dev.toolgate.trace;

import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizer;
import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizerProvider;
import jakarta.enterprise.inject.Vetoed;

/**
 * Wraps whatever span exporter the server's SDK configures, so what leaves is scrubbed ({@link ScrubbingSpanExporter})
 * and counted ({@link CountingSpanExporter}); batching, queue and exporter stay as configured. Both servers build the
 * application's SDK by OpenTelemetry's autoconfiguration with the application's class loader (Payara's
 * {@code OpenTelemetryService}, WildFly's SmallRye producer), which finds this through {@code META-INF/services}.
 * Each configured exporter is wrapped: with two, a span counts twice.
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
