package dev.toolgate.journal;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.List;

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

    /**
     * How long after an outcome became unknown a look-up that finds nothing still proves nothing:
     * the target may be executing the request whose response was lost. 30 s: three times the
     * default read timeout, for a target that keeps working after the caller gave up.
     */
    @Inject
    @ConfigProperty(name = "toolgate.reconcile.settle-seconds", defaultValue = "30")
    int settleSeconds;

    /** Failed look-ups (pending, target unreachable) before an operation is escalated to a person. */
    @Inject
    @ConfigProperty(name = "toolgate.reconcile.max-attempts", defaultValue = "10")
    int maxReconciles;

    /**
     * How long finished operations are kept, i.e. how long a retry with the same key replays instead
     * of executing again. 30 days: longer than any agent's retry horizon and than the payment
     * providers' own key windows (24 h), short enough to keep the journal small. Published in the
     * README and as {@code expires_at} on every finished operation.
     */
    @Inject
    @ConfigProperty(name = "toolgate.retention-days", defaultValue = "30")
    int retentionDays;

    /**
     * Operation types that wait for a person's approval before anything is sent (money
     * moves). {@code none} requires it for nothing.
     */
    @Inject
    @ConfigProperty(name = "toolgate.approval.required-for", defaultValue = "payment.create,payment.refund")
    List<String> approvalRequiredFor;

    public boolean approvalRequired(String operation) {
        return approvalRequiredFor.contains(operation);
    }

    public Duration settleWindow() {
        return Duration.ofSeconds(settleSeconds);
    }

    public int maxReconciles() {
        return maxReconciles;
    }

    public Duration retention() {
        return Duration.ofDays(retentionDays);
    }

    public Duration lease() {
        return Duration.ofSeconds(leaseSeconds);
    }

    public int maxReconcileBackoffSeconds() {
        return maxReconcileBackoffSeconds;
    }
}
