package dev.toolgate.trace;

import io.opentelemetry.api.OpenTelemetry;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.util.logging.Level;
import java.util.logging.Logger;

/** Hands the server's OpenTelemetry to {@link Spans} at start (docs/telemetry.md); none leaves tracing off, never the application down. */
@Singleton
@Startup
public class TelemetryStartup {

    private static final Logger LOG = Logger.getLogger(TelemetryStartup.class.getName());

    @Inject
    Instance<OpenTelemetry> telemetry;

    @PostConstruct
    void start() {
        if (!telemetry.isResolvable()) {
            LOG.info("the server provides no OpenTelemetry: spans are not recorded");
            return;
        }
        try {
            Spans.use(telemetry.get());
        } catch (RuntimeException | LinkageError e) { // e.g. an OTEL_* setting the server's SDK cannot read
            LOG.log(Level.WARNING, "the server's OpenTelemetry could not be set up; spans are not recorded", e);
        }
    }
}
