package dev.toolgate.reconcile;

import dev.toolgate.dispatch.Dispatcher;
import dev.toolgate.dispatch.Attempts;
import dev.toolgate.dispatch.Sent;
import dev.toolgate.journal.OperationView;
import dev.toolgate.journal.LookupRecorder;
import dev.toolgate.journal.Settlement;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import io.opentelemetry.context.Context;
import jakarta.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Looks an operation up by our key and records the answer through the journal's fenced path;
 * sends the next attempt only when the target has no trace of the last one after the settle window.
 * NOT_SUPPORTED: called from the reconcile job's chunk, it suspends that transaction for the target call.
 *
 * <p>A caller settles one operation ({@link #settle}); the reconcile job takes the same three steps for a
 * whole chunk, each step for every item before the next: the look-ups side by side, their records in one
 * transaction ({@link #record}), then what each record calls for ({@link #follow}).
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
     * A look-up's answer to record: {@code canResend} whether a new attempt may be sent from here
     * ({@link #canResend}), {@code span} the step its record span is a child of, {@code traceId} the
     * trace its events name (the caller's; in the job, the operation's own).
     */
    public record Answer(OperationView leased, Lookup lookup, boolean canResend, Context span, String traceId) {
    }

    /**
     * Reconciles an operation {@code actor} holds the look-up lease for. {@code callerPayload} is the
     * caller's full request when a caller is present (null for the job).
     */
    public Reconciled settle(OperationView leased, String actor, JsonObject callerPayload) {
        Lookup lookup = lookUp(leased);
        Settlement settlement = record(List.of(new Answer(leased, lookup, canResend(leased, callerPayload), Context.current(), Trace.traceId())), actor).get(0);
        return follow(settlement, lookup, actor, callerPayload != null ? callerPayload : leased.payload());
    }

    /**
     * Whether a new attempt may be sent from here: without the caller's full request, an operation whose
     * sensitive fields were withheld from the journal cannot be.
     */
    public static boolean canResend(OperationView leased, JsonObject callerPayload) {
        return callerPayload != null || leased.withheldFields().isEmpty();
    }

    /** The look-up by key, its own span: what it found (an ambiguous answer lists every object it found). */
    public Lookup lookUp(OperationView leased) {
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
     * The look-ups' fenced writes, all in one transaction, each with a span of its own under its item's
     * step: the status it left the row in. The settlements in the answers' order; a failure is every
     * answer's (nothing of the batch was written).
     */
    public List<Settlement> record(List<Answer> answers, String actor) {
        List<Step> steps = new ArrayList<>(answers.size());
        List<LookupRecorder.LookedUp> batch = new ArrayList<>(answers.size());
        for (Answer answer : answers) {
            OperationView leased = answer.leased();
            steps.add(Spans.aside("toolgate.record_lookup", answer.span(), OperationAttributes.none()).attempt(leased.attemptCount()));
            batch.add(new LookupRecorder.LookedUp(leased, answer.lookup(), policies.of(leased.target()), answer.canResend(),
                    answer.traceId()));
        }
        try {
            List<Settlement> settlements = recorder.reconciled(batch, actor);
            for (int i = 0; i < settlements.size(); i++) {
                Settlement settlement = settlements.get(i);
                OperationView after = settlement.operation();
                steps.get(i).after(answers.get(i).leased().status().dbName(), after.status().dbName(), after.targetObjectId())
                        .outcome(settlement.retryNow() ? "send_again" : null);
            }
            return settlements;
        } catch (RuntimeException e) {
            steps.forEach(step -> step.threw(e));
            throw e;
        } finally {
            steps.forEach(Step::close);
        }
    }

    /**
     * After the record: the attempt it started is sent now, with {@code payload} (the caller's request, or
     * the journal's), when it started one; else the settlement is the answer.
     */
    public Reconciled follow(Settlement settlement, Lookup lookup, String actor, JsonObject payload) {
        if (!settlement.retryNow()) {
            return new Reconciled(settlement.operation(), lookup, false);
        }
        Sent sent = dispatcher.send(settlement.operation(), actor, payload);
        return new Reconciled(sent.operation(), lookup, sent.byThisCall());
    }
}
