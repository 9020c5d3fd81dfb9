package dev.toolgate.reconcile;

import dev.toolgate.dispatch.Dispatcher;
import dev.toolgate.dispatch.Attempts;
import dev.toolgate.dispatch.Sent;
import dev.toolgate.journal.OperationView;
import dev.toolgate.lifecycle.LookupRecorder;
import dev.toolgate.lifecycle.Settlement;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

/**
 * Looks an operation up by our key and records the answer through the journal's fenced path;
 * sends the next attempt only when the target has no trace of the last one after the settle window.
 * NOT_SUPPORTED: called from the reconcile job's chunk, it suspends that transaction for the target call.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Reconciler {

    @Inject
    TargetRegistry targets;
    @Inject
    LookupRecorder recorder;
    @Inject
    Dispatcher dispatcher;
    @Inject
    RetryPolicies policies;

    /**
     * Reconciles an operation {@code actor} holds the look-up lease for. {@code callerPayload} is the
     * caller's full request when a caller is present (null for the job): without it, an operation whose
     * sensitive fields were withheld from the journal cannot be sent again here.
     */
    public Reconciled settle(OperationView leased, String actor, JsonObject callerPayload) {
        Lookup lookup = lookUp(leased);
        boolean canResend = callerPayload != null || leased.withheldFields().isEmpty();
        Settlement settlement = record(leased, lookup, actor, canResend);
        if (!settlement.retryNow()) {
            return new Reconciled(settlement.operation(), lookup, false);
        }
        Sent sent = dispatcher.send(settlement.operation(), actor, callerPayload != null ? callerPayload : leased.payload());
        return new Reconciled(sent.operation(), lookup, sent.byThisCall());
    }

    /** The look-up by key, its own span: what it found (an ambiguous answer lists every object it found). */
    private Lookup lookUp(OperationView leased) {
        try (Step step = Spans.step("toolgate.lookup", OperationAttributes.none()).attempt(leased.attemptCount())) {
            Lookup lookup = targets.lookup(leased.target(), Attempts.forLookup(leased));
            step.outcome(lookup.metricName());
            if (lookup instanceof Lookup.Found found) {
                step.set(OperationAttributes.TARGET_OBJECT_ID.getKey(), found.objectId());
            } else if (lookup instanceof Lookup.Ambiguous ambiguous) {
                step.set("toolgate.found_object_ids", String.join(",", ambiguous.objectIds()));
            } else if (lookup instanceof Lookup.Unavailable unavailable) {
                step.failed(unavailable.errorCode());
            }
            return lookup;
        }
    }

    /** The look-up's fenced write, its own span: the status it left the row in. */
    private Settlement record(OperationView leased, Lookup lookup, String actor, boolean canResend) {
        try (Step step = Spans.step("toolgate.record_lookup", OperationAttributes.none()).attempt(leased.attemptCount())) {
            Settlement settlement = recorder.reconciled(leased, lookup, policies.of(leased.target()), actor, canResend);
            OperationView after = settlement.operation();
            step.after(leased.status().dbName(), after.status().dbName(), after.targetObjectId()).outcome(settlement.retryNow() ? "send_again" : null);
            return settlement;
        }
    }
}
