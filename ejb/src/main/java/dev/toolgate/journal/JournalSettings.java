package dev.toolgate.journal;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.List;

@ApplicationScoped
public class JournalSettings {

    /** 30 s: longer than a target call can take (connect 2 s + read 10 s by default), so a live call is never taken over. */
    @Inject
    @ConfigProperty(name = "toolgate.lease-seconds", defaultValue = "30")
    int leaseSeconds;

    /** Ceiling of the back-off between look-ups of an operation whose outcome stays unknown. */
    @Inject
    @ConfigProperty(name = "toolgate.reconcile.max-backoff-seconds", defaultValue = "300")
    int maxReconcileBackoffSeconds;

    /**
     * How long after an outcome became unknown "absent" still proves nothing: the target may be executing the request
     * whose response was lost. 30 s: three times the default read timeout.
     */
    @Inject
    @ConfigProperty(name = "toolgate.reconcile.settle-seconds", defaultValue = "30")
    int settleSeconds;

    /** Failed look-ups (pending, target unreachable) before an operation is escalated to a person. */
    @Inject
    @ConfigProperty(name = "toolgate.reconcile.max-attempts", defaultValue = "10")
    int maxReconciles;

    /**
     * How long finished operations are kept, i.e. how long a retry replays. 30 days: longer than any agent's retry
     * horizon and the payment providers' key windows (24 h). Published as {@code expires_at} on finished operations.
     */
    @Inject
    @ConfigProperty(name = "toolgate.retention-days", defaultValue = "30")
    int retentionDays;

    /** Operation types that wait for a person's approval before anything is sent; {@code none}: nothing. */
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
