package dev.toolgate.journal;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;

/** Journal timing, from MicroProfile Config (system properties, environment, microprofile-config.properties). */
@ApplicationScoped
public class JournalSettings {

    /**
     * Who may act on a started operation, and for how long. 30 s: longer than a target call can
     * take (connect 2 s + read 10 s by default) plus margin, so a live call is never taken over.
     */
    @Inject
    @ConfigProperty(name = "toolgate.lease-seconds", defaultValue = "30")
    int leaseSeconds;

    /** Ceiling of the back-off between look-ups of an operation whose outcome stays unknown. */
    @Inject
    @ConfigProperty(name = "toolgate.reconcile.max-backoff-seconds", defaultValue = "300")
    int maxReconcileBackoffSeconds;

    public Duration lease() {
        return Duration.ofSeconds(leaseSeconds);
    }

    public int maxReconcileBackoffSeconds() {
        return maxReconcileBackoffSeconds;
    }
}
