package dev.toolgate.reconcile;

import dev.toolgate.dispatch.Dispatcher;
import dev.toolgate.dispatch.Sent;
import dev.toolgate.journal.OperationView;
import dev.toolgate.journal.OutcomeRecorder;
import dev.toolgate.journal.Settlement;
import dev.toolgate.target.Lookup;
import dev.toolgate.target.RetryPolicies;
import dev.toolgate.target.Targets;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/**
 * Looks an operation up by our key and records the answer through the journal's fenced path;
 * sends the next attempt only when the target has no trace of the last one after the settle window.
 * NOT_SUPPORTED: called from the reconcile job's chunk, it suspends that transaction for the target call.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Reconciler {

    @Inject
    Targets targets;
    @Inject
    OutcomeRecorder recorder;
    @Inject
    Dispatcher dispatcher;
    @Inject
    RetryPolicies policies;

    /** Reconciles an operation {@code actor} holds the look-up lease for. */
    public Reconciled settle(OperationView leased, String actor) {
        Lookup lookup = targets.lookup(leased.target(), Dispatcher.dispatchOf(leased));
        Settlement settlement = recorder.reconciled(leased, lookup, policies.of(leased.target()), actor);
        if (!settlement.retryNow()) {
            return new Reconciled(settlement.operation(), lookup, false);
        }
        Sent sent = dispatcher.send(settlement.operation(), actor);
        return new Reconciled(sent.operation(), lookup, sent.byThisCall());
    }
}
