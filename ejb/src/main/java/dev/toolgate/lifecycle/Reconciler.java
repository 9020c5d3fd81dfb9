package dev.toolgate.lifecycle;

import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicy;
import dev.toolgate.targets.registry.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/**
 * One look-up of the {@link OperationLoop}: asks the target by our key whether the effect exists and records the
 * answer. NOT_SUPPORTED: under the reconcile job's chunk, it suspends that transaction for the target call.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Reconciler {

    @Inject
    TargetRegistry targets;
    @Inject
    LookupRecorder recorder;

    /** {@code canResend}: the driver holds every field the next attempt needs (withheld fields need their caller). */
    public Phase lookUp(OperationView leased, String actor, boolean canResend, RetryPolicy policy) {
        Lookup lookup = lookUp(leased);
        return record(leased, lookup, actor, canResend, policy);
    }

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

    private Phase record(OperationView leased, Lookup lookup, String actor, boolean canResend, RetryPolicy policy) {
        try (Step step = Spans.step("toolgate.record_lookup", OperationAttributes.none()).attempt(leased.attemptCount())) {
            Phase recorded = recorder.reconciled(leased, lookup, policy, actor, canResend);
            recorded.described(step).outcome(recorded.byThisCall() ? "send_again" : null);
            return recorded;
        }
    }
}
