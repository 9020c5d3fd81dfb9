package dev.toolgate.targets;

import dev.toolgate.canonical.InvalidCommand;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

/** Finds the adapter for a target system, and guards invariant 3 on every call. */
@ApplicationScoped
public class Targets {

    @Inject
    @Any
    Instance<Target> adapters;
    @Inject
    ConfiguredHttpTargets configured;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    /** Refuses, before anything is stored, an operation whose target this gateway cannot reach. */
    public void requireConfigured(String system) {
        if (configured.find(system).isEmpty() && adapters.stream().noneMatch(t -> t.system().equals(system) && t.configured())) {
            throw new InvalidCommand(InvalidCommand.Reason.UNKNOWN_TARGET, "target '" + system + "' is not configured on this gateway");
        }
    }

    /** One attempt; whatever the adapter does, the answer is an outcome (see {@link AdapterFailures}). */
    public Outcome execute(String system, Dispatch dispatch) {
        Target adapter = adapter(system);
        try {
            return adapter.execute(dispatch);
        } catch (RuntimeException e) {
            return AdapterFailures.ofExecute(system, dispatch, e);
        }
    }

    /** One look-up; an adapter that throws is a look-up that could not be made. */
    public Lookup lookup(String system, Dispatch dispatch) {
        Target adapter = adapter(system);
        try {
            return adapter.lookup(dispatch);
        } catch (RuntimeException e) {
            return AdapterFailures.ofLookup(system, e);
        }
    }

    private Target adapter(String system) {
        // A row lock held across a network call would block every retry of this key, and a
        // commit after the call could lose the outcome: never call a target inside a transaction.
        if (transactions.getTransactionStatus() != Status.STATUS_NO_TRANSACTION) {
            throw new IllegalStateException("a database transaction is open while calling target " + system);
        }
        return configured.find(system).or(() -> adapters.stream().filter(t -> t.system().equals(system)).findFirst())
                .orElseThrow(() -> new IllegalStateException("no adapter for target " + system));
    }
}
