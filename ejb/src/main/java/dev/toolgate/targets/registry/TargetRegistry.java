package dev.toolgate.targets.registry;

import dev.toolgate.admission.WorkPermits;
import dev.toolgate.targets.TargetUnanswered;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.canonical.OperationCatalog;
import dev.toolgate.targets.AdapterSetting;
import dev.toolgate.targets.AnnouncedObjects;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.PaymentCoverage;
import dev.toolgate.targets.Target;
import dev.toolgate.targets.bitrix24.Bitrix24Deals;
import dev.toolgate.targets.bitrix24.Bitrix24Settings;
import dev.toolgate.targets.http.GenericHttpAdapter;
import dev.toolgate.targets.http.HttpTargetSettings;
import dev.toolgate.targets.onec.OneCDocuments;
import dev.toolgate.targets.onec.OneCSettings;
import dev.toolgate.targets.tls.TlsMisconfigured;
import dev.toolgate.targets.yookassa.YooKassaPayments;
import dev.toolgate.targets.yookassa.YooKassaSettings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * Every target this gateway reaches, built once at start-up ({@link AdapterSetting} picks each adapter), and the
 * one way to call them. A system not configured has its operations refused before anything is stored.
 */
@ApplicationScoped
public class TargetRegistry {

    private static final Logger LOG = Logger.getLogger(TargetRegistry.class.getName());

    private final Map<String, Target> targets = new TreeMap<>();
    private final Set<String> misconfigured = new TreeSet<>();

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    /** Created at start, so a misconfigured target is in the log before the first call. */
    void atStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    }

    @PostConstruct
    void build() {
        Config config = ConfigProvider.getConfig();
        for (String system : OperationCatalog.targets()) {
            try {
                configured(config, system).ifPresent(target -> targets.put(system, target));
            } catch (RuntimeException e) {
                // only a TLS refusal's message is known to name the setting and never its value; a URL
                // parser's or a converter's quotes the value, which may be a webhook secret
                String why = e instanceof TlsMisconfigured ? e.getMessage() : e.getClass().getName();
                misconfigured.add(system);
                LOG.severe("target " + system + " is misconfigured and refused (toolgate.target." + system + ".*): " + why);
            }
        }
    }

    /** At undeploy: each adapter's connections closed, not left to the targets' idle time-outs. */
    @PreDestroy
    void close() {
        targets.values().forEach(Target::close);
    }

    static Optional<Target> configured(Config config, String system) {
        if (AdapterSetting.genericHttp(config, system)) {
            return Optional.of(new GenericHttpAdapter(system, HttpTargetSettings.from(config, system)));
        }
        return switch (system) {
            case "1c" -> OneCSettings.from(config).map(OneCDocuments::new);
            case "bitrix24" -> Bitrix24Settings.from(config).map(Bitrix24Deals::new);
            case "yookassa" -> YooKassaSettings.from(config).map(YooKassaPayments::new);
            default -> throw new IllegalStateException("the catalog names target " + system + ", which has no coded adapter");
        };
    }

    public void requireConfigured(String system) {
        if (misconfigured.contains(system)) {
            throw new InvalidCommand(InvalidCommand.Reason.UNKNOWN_TARGET, "target '" + system
                    + "' is misconfigured on this gateway; its log names the setting");
        }
        if (!targets.containsKey(system)) {
            throw new InvalidCommand(InvalidCommand.Reason.UNKNOWN_TARGET, "target '" + system + "' is not configured on this gateway");
        }
    }

    /** One attempt; whatever the adapter does, the answer is an outcome (see {@link AdapterFailures}). */
    public Outcome execute(String system, Attempt attempt) {
        requireNoTransaction(system);
        Target adapter = targets.get(system);
        if (adapter == null) { // captured before a redeploy that dropped or broke its configuration: nothing sent
            return new Outcome.Transient("target_not_configured", null, null);
        }
        try {
            return WorkPermits.awayFor(() -> adapter.execute(attempt));
        } catch (RuntimeException e) {
            return AdapterFailures.ofExecute(system, attempt, e);
        }
    }

    public Lookup lookup(String system, Attempt attempt) {
        requireNoTransaction(system);
        return lookup(system, targets.get(system), attempt);
    }

    private static Lookup lookup(String system, Target adapter, Attempt attempt) {
        if (adapter == null) { // counts as a failed look-up: backs off, and escalates at the limit
            return new Lookup.Unavailable("target_not_configured");
        }
        try {
            return WorkPermits.awayFor(() -> adapter.lookup(attempt));
        } catch (RuntimeException e) {
            return AdapterFailures.ofLookup(system, e);
        }
    }

    /** How many attempts of {@code operation} {@link #lookupAll} asks {@code system} for in one request: at least 1. */
    public int lookupBatch(String system, String operation) {
        Target adapter = targets.get(system);
        return adapter == null ? 1 : Math.max(1, adapter.lookupBatch(operation));
    }

    /**
     * {@link #lookup} of several attempts at {@code system} together; whatever the adapter does, one answer per attempt.
     * Should the adapter throw, each attempt is looked up alone.
     */
    public List<Lookup> lookupAll(String system, List<Attempt> attempts) {
        requireNoTransaction(system);
        return lookupAll(system, targets.get(system), attempts);
    }

    static List<Lookup> lookupAll(String system, Target adapter, List<Attempt> attempts) {
        if (adapter == null) {
            return Collections.nCopies(attempts.size(), new Lookup.Unavailable("target_not_configured"));
        }
        try {
            List<Lookup> answers = WorkPermits.awayFor(() -> adapter.lookupAll(attempts));
            if (answers.size() != attempts.size()) {
                throw new IllegalStateException(answers.size() + " answers to " + attempts.size() + " look-ups");
            }
            return answers;
        } catch (RuntimeException e) {
            // one attempt's trouble must not be every attempt's: each is asked alone, each failure its own
            AdapterFailures.ofLookup(system, e);
            return attempts.stream().map(attempt -> lookup(system, adapter, attempt)).toList();
        }
    }

    /** {@link PaymentCoverage#coverage} at {@code system}; {@link TargetUnanswered} also when its adapter cannot tell. */
    public Optional<PaymentCoverage.Coverage> coverage(String system, String paymentId) {
        requireNoTransaction(system);
        return coverage(system, targets.get(system), paymentId);
    }

    /**
     * An adapter that keeps no account of payments (the generic HTTP one) cannot say, which is not "no such payment":
     * the console would tell an approver that the refund will be refused.
     */
    static Optional<PaymentCoverage.Coverage> coverage(String system, Target adapter, String paymentId) {
        if (!(adapter instanceof PaymentCoverage payments)) {
            throw new TargetUnanswered(adapter == null ? system + " is not configured on this gateway"
                    : "the adapter configured for " + system + " cannot say what a payment covers");
        }
        try {
            return WorkPermits.awayFor(() -> payments.coverage(paymentId));
        } catch (TargetUnanswered e) {
            throw e;
        } catch (RuntimeException e) {
            throw new TargetUnanswered(e.getClass().getSimpleName());
        }
    }

    public boolean announces(String system, String operation) {
        return targets.get(system) instanceof AnnouncedObjects announced && announced.announcedOperations().contains(operation);
    }

    public Optional<String> downstreamKeyOf(String system, String kind, String objectId) {
        requireNoTransaction(system);
        if (!(targets.get(system) instanceof AnnouncedObjects announced)) {
            throw new TargetUnanswered(system + " is not reached here by an adapter that can name its objects' keys");
        }
        try {
            return WorkPermits.awayFor(() -> announced.downstreamKeyOf(kind, objectId));
        } catch (TargetUnanswered e) {
            throw e;
        } catch (RuntimeException e) {
            throw new TargetUnanswered(e.getClass().getSimpleName());
        }
    }

    private void requireNoTransaction(String system) {
        // A row lock held across a network call would block every retry of this key, and a
        // commit after the call could lose the outcome: never call a target inside a transaction.
        if (transactions.getTransactionStatus() != Status.STATUS_NO_TRANSACTION) {
            throw new IllegalStateException("a database transaction is open while calling target " + system);
        }
    }
}
