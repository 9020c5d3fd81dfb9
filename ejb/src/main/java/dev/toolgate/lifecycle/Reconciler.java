package dev.toolgate.lifecycle;

import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicy;
import dev.toolgate.targets.registry.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One look-up of the {@link OperationLoop}: asks the target by our key whether the effect exists and records the answer.
 * A plain bean, for the reason the loop gives; {@code TargetRegistry.lookup} refuses to call a target inside a transaction.
 */
@ApplicationScoped
public class Reconciler {

    @Inject
    TargetRegistry targets;
    @Inject
    LookupRecorder recorder;

    /** {@code canResend}: the driver holds every field the next attempt needs (withheld fields need their caller). */
    public Phase lookUp(OperationView leased, String actor, boolean canResend, RetryPolicy policy) {
        Lookup lookup = ask(leased);
        return record(leased, lookup, actor, canResend, policy);
    }

    /** The target's answer on whether the effect of {@code leased}'s attempt exists, looked up by our key; nothing recorded. */
    public Lookup ask(OperationView leased) {
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

    /**
     * {@link #ask} of several rows of one target's operation in as few requests as the target allows, answers in their
     * order: one {@code toolgate.lookup} span, linked to each row's span in {@code items}.
     */
    public List<Lookup> askAll(List<OperationView> leased, List<Step> items) {
        String target = leased.get(0).target();
        OperationAttributes shared = new OperationAttributes(null, null, leased.get(0).operation(), target);
        try (Step step = Spans.batch("toolgate.lookup", items, shared)) {
            step.set("toolgate.items", leased.size());
            List<Lookup> lookups = targets.lookupAll(target, leased.stream().map(Attempts::forLookup).toList());
            step.outcome(lookups.stream().map(Lookup::metricName).distinct().sorted().collect(Collectors.joining(",")));
            return lookups;
        }
    }

    /** A chunk's answers recorded in one transaction ({@link LookupRecorder#reconciledAll}), under one span. */
    public List<Phase> recordAll(List<OperationView> leased, List<Lookup> lookups, String actor) {
        try (Step step = Spans.step("toolgate.record_lookups", OperationAttributes.none())) {
            step.set("toolgate.items", leased.size());
            return recorder.reconciledAll(leased, lookups, actor);
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
