package dev.toolgate.trace;

import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizer;
import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizerProvider;
import jakarta.enterprise.inject.Vetoed;

/**
 * Wraps whatever span exporter the server's SDK configures in a {@link CountingSpanExporter}. Both servers
 * build the application's SDK with OpenTelemetry's autoconfiguration and the application's class loader
 * for its service providers (Payara's {@code OpenTelemetryService}, WildFly's SmallRye producer), which
 * finds this one through {@code META-INF/services}. Nothing else of the server's pipeline changes: its
 * batching, its bounded queue and its exporter stay as configured.
 */
@Vetoed
public final class ExportCounting implements AutoConfigurationCustomizerProvider {

    @Override
    public void customize(AutoConfigurationCustomizer autoConfiguration) {
        autoConfiguration.addSpanExporterCustomizer((exporter, config) -> new CountingSpanExporter(exporter));
    }
}
