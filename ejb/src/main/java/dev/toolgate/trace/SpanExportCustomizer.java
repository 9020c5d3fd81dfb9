package dev.toolgate.trace;

import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizer;
import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizerProvider;
import jakarta.enterprise.inject.Vetoed;

/**
 * Wraps the exporter the server's SDK configures so what leaves is scrubbed and counted; both servers autoconfigure
 * the SDK with the application's class loader, which finds this in {@code META-INF/services}. With two exporters a
 * span counts twice.
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
