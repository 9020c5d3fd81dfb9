package dev.toolgate.reconcile.job;

import dev.toolgate.lifecycle.DueOperations;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.lifecycle.LeaseRenewals;
import dev.toolgate.operation.OperationView;
import dev.toolgate.lifecycle.ConcurrentLookups;
import dev.toolgate.lifecycle.OperationLoop;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.StructuredLog;
import dev.toolgate.trace.Trace;
import dev.toolgate.lifecycle.Dispatcher;
import dev.toolgate.lifecycle.Phase;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.registry.TargetRegistry;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * Settles a chunk of claimed operations and counts the outcomes, per tenant, into the step's persistent user data,
 * which {@code GET /api/v1/reconciliations/{id}} shows. In turns, none holding a transaction while a target is asked
 * (the {@link OperationLoop} is NOT_SUPPORTED: the chunk's transaction is suspended):
 * <ol>
 *   <li>each item, still held, is looked up by its key, side by side up to each target's limit ({@link ConcurrentLookups}),
 *       those of one target's operation in one request where the target takes several keys at once;</li>
 *   <li>the chunk's answers are recorded in one transaction: the found and failed objects by one statement;</li>
 *   <li>each item found absent, whose next attempt the record leased, is sent again, side by side;</li>
 *   <li>those attempts' outcomes are recorded in one transaction; one that failed for now with a short back-off is
 *       tried again after it, as in an agent's call.</li>
 * </ol>
 * Items were claimed in batches under one lease each; before an item is looked up, and again before its answer and its
 * new attempt's outcome are recorded, its lease is renewed once less than half of it is left, so none waits out its
 * lease behind the chunk's slowest — one another instance or an agent took over is skipped ({@code taken_over}). A look-up slower than the lease may be joined by another holder; the fenced writes keep that
 * safe: only the newest lease's decision is written. One item that fails is counted ({@code error}), logged with an
 * incident id, and left to its lease: it never fails the chunk. Should a chunk's record fail, each item is recorded
 * on its own, so one row's trouble does not hold back the others. A crash between a send and its record leaves the
 * row started under its lease, which lapses and is looked up, as a crash during the send does.
 */
@Named
@Dependent
public class ReconcileWriter extends AbstractItemWriter {

    private static final Logger LOG = Logger.getLogger(ReconcileWriter.class.getName());

    @Inject
    OperationLoop loop;
    @Inject
    ConcurrentLookups lookups;
    @Inject
    LeaseRenewals renewals;
    @Inject
    JournalSettings settings;
    @Inject
    TargetRegistry targets;
    @Inject
    StepContext step;

    /** One claimed operation through the chunk's turns: its span, in the operation's trace, is open across them. */
    private static final class Item {
        final OperationView claimed;
        final Step span;
        OperationView held;
        Lookup lookup;
        Phase phase;
        Dispatcher.Sent sent;
        String outcome;

        Item(OperationView claimed, Step span) {
            this.claimed = claimed;
            this.span = span;
        }

        boolean open() {
            return outcome == null;
        }
    }

    @Override
    public void writeItems(List<Object> claimed) {
        TreeMap<String, TreeMap<String, Integer>> counts = ReconcileCounts.of(step.getPersistentUserData());
        Context run = Context.current(); // the run's span (ReconcileRunTracing), on this thread only
        List<Item> items = new ArrayList<>(claimed.size());
        for (Object each : claimed) {
            items.add(new Item((OperationView) each, itemSpan(run, (OperationView) each)));
        }
        // in the order of their keys, so the rows a chunk's records lock are locked in the order every chunk locks them
        items.sort(Comparator.comparing((Item item) -> item.claimed.tenant()).thenComparing(item -> item.claimed.key()));
        try {
            lookups.each(askedTogether(items), unit -> unit.get(0).claimed.target(), unit -> ask(run, unit));
            record(stillHeld(items.stream().filter(Item::open).toList()));
            lookups.each(items.stream().filter(Item::open).toList(), item -> item.claimed.target(),
                    item -> turn(item, () -> item.sent = loop.send(item.phase, DueOperations.ACTOR)));
            recordOutcomes(attemptsStillHeld(items.stream().filter(Item::open).toList()));
            lookups.each(items.stream().filter(item -> item.open() && waitsOutBackOff(item.phase)).toList(), item -> item.claimed.target(),
                    item -> turn(item, () -> attempted(item, loop.afterAttempt(item.phase, item.lookup, DueOperations.ACTOR))));
        } finally {
            for (Item item : items) {
                item.span.outcome(item.outcome).failed("error".equals(item.outcome) ? "item_failed" : null).close();
                ReconcileCounts.add(counts, item.claimed.tenant(), item.outcome != null ? item.outcome : "error", 1);
            }
            step.setPersistentUserData(counts);
        }
    }

    /**
     * The job continues the operation's own trace in the journal: its events and log lines join the agent's call.
     * Its span is the run's child, linked to the span that captured the operation.
     */
    private static Step itemSpan(Context run, OperationView operation) {
        OperationAttributes attributes = new OperationAttributes(operation.tenant(), operation.key(), operation.operation(), operation.target());
        return Spans.linked("toolgate.reconcile_item", run, operation.traceId(), operation.spanId(), attributes)
                .attempt(operation.attemptCount()).detach();
    }

    /** One turn of one item on this thread, in its span and trace; a failure is the item's outcome, never the chunk's. */
    private static Void turn(Item item, Runnable work) {
        try (Scope span = item.span.enter(); Trace trace = Trace.open(item.claimed.traceId(), item.claimed.key())) {
            try {
                work.run();
            } catch (RuntimeException e) { // e.g. the journal went away mid-item: its lease expires, and it is claimed again
                StructuredLog.incident(LOG, "reconcile item failed", Map.of(), e);
                item.outcome = "error";
            }
        }
        return null;
    }

    /**
     * The items in the units they are looked up in: those of one target's operation together, as many as the target
     * takes in one request ({@link TargetRegistry#lookupBatch}), each unit in the items' (key) order.
     */
    private List<List<Item>> askedTogether(List<Item> items) {
        Map<String, List<Item>> byOperation = new LinkedHashMap<>();
        for (Item item : items) {
            byOperation.computeIfAbsent(item.claimed.target() + " " + item.claimed.operation(), k -> new ArrayList<>()).add(item);
        }
        List<List<Item>> units = new ArrayList<>();
        byOperation.values().forEach(same -> {
            int batch = targets.lookupBatch(same.get(0).claimed.target(), same.get(0).claimed.operation());
            for (int from = 0; from < same.size(); from += batch) {
                units.add(same.subList(from, Math.min(same.size(), from + batch)));
            }
        });
        return units;
    }

    /** One unit's look-up: each item still held, then asked alone or, with others, in one request. */
    private Void ask(Context run, List<Item> unit) {
        unit.forEach(item -> turn(item, () -> hold(item)));
        List<Item> held = unit.stream().filter(Item::open).toList();
        if (held.size() == 1) {
            turn(held.get(0), () -> held.get(0).lookup = loop.lookUp(held.get(0).held));
        } else if (held.size() > 1) {
            try (Scope inRun = run.makeCurrent()) { // the shared request is the run's step, linked to each item's span
                List<Lookup> answers = loop.lookUpAll(held.stream().map(item -> item.held).toList(), held.stream().map(item -> item.span).toList());
                for (int i = 0; i < held.size(); i++) {
                    held.get(i).lookup = answers.get(i);
                }
            } catch (RuntimeException e) {
                StructuredLog.incident(LOG, "a shared reconcile look-up failed", Map.of("items", Integer.toString(held.size())), e);
                held.forEach(item -> item.outcome = "error");
            }
        }
        return null;
    }

    /** The item's row, provably still held by its claim or renewed; one another holder took over ends here. */
    private void hold(Item item) {
        OperationView claimed = item.claimed;
        // a claim more than half of whose lease is left is provably still ours (as at the effect gate)
        Optional<OperationView> held = LeaseRenewals.provablyHeld(claimed.leaseUntil(), settings.lease(), Instant.now())
                ? Optional.of(claimed) : renewals.renewLookUp(claimed);
        if (held.isEmpty()) {
            item.outcome = "taken_over";
            return;
        }
        // the claim leased the row for a look-up, as a capture's Reconcile decision does for an agent
        item.held = held.get();
    }

    /**
     * The items whose look-up leases are still theirs: one less than half of which is left (it waited behind the chunk's
     * slowest look-up) is renewed first, so no one takes it over before its answer is recorded; one already taken over
     * is skipped. The record's fences would keep a taken-over item's answer out anyway; this keeps it from being needed.
     */
    private List<Item> stillHeld(List<Item> asked) {
        Instant now = Instant.now();
        for (Item item : asked) {
            if (!LeaseRenewals.provablyHeld(item.held.leaseUntil(), settings.lease(), now)) {
                turn(item, () -> renewals.renewLookUp(item.held).ifPresentOrElse(renewed -> item.held = renewed,
                        () -> item.outcome = "taken_over"));
            }
        }
        return asked.stream().filter(Item::open).toList();
    }

    /** As {@link #stillHeld}, for the attempts sent: each renewed before its outcome waits past half its lease. */
    private List<Item> attemptsStillHeld(List<Item> sent) {
        Instant now = Instant.now();
        for (Item item : sent) {
            if (item.sent.lapsed() == null && !LeaseRenewals.provablyHeld(item.sent.attempt().leaseUntil(), settings.lease(), now)) {
                // lost to another holder or not, the outcome is recorded: its fence refuses it, and the refusal says why
                turn(item, () -> renewals.renewAttempt(item.sent.attempt(), false, DueOperations.ACTOR));
            }
        }
        return sent.stream().filter(Item::open).toList();
    }

    private void record(List<Item> asked) {
        if (asked.isEmpty()) {
            return;
        }
        List<Phase> phases;
        try {
            phases = loop.recordLookUps(asked.stream().map(item -> item.held).toList(),
                    asked.stream().map(item -> item.lookup).toList(), DueOperations.ACTOR);
        } catch (RuntimeException e) {
            StructuredLog.incident(LOG, "recording a reconcile chunk failed; recording its items one by one",
                    Map.of("items", Integer.toString(asked.size())), e);
            for (Item item : asked) {
                turn(item, () -> recorded(item, loop.recordLookUps(List.of(item.held), List.of(item.lookup), DueOperations.ACTOR).get(0)));
            }
            return;
        }
        for (int i = 0; i < asked.size(); i++) {
            recorded(asked.get(i), phases.get(i));
        }
    }

    private static void recorded(Item item, Phase phase) {
        item.phase = phase;
        phase.described(item.span);
        if (!phase.byThisCall()) { // anything but a next attempt leased to us ends the item here
            item.outcome = phase.outcome();
        }
    }

    private void recordOutcomes(List<Item> sent) {
        if (sent.isEmpty()) {
            return;
        }
        List<Phase> phases;
        try {
            phases = loop.recordOutcomes(sent.stream().map(item -> item.sent).toList(), DueOperations.ACTOR);
        } catch (RuntimeException e) {
            StructuredLog.incident(LOG, "recording a reconcile chunk's outcomes failed; recording them one by one",
                    Map.of("items", Integer.toString(sent.size())), e);
            for (Item item : sent) {
                turn(item, () -> recordedAttempt(item, loop.recordOutcomes(List.of(item.sent), DueOperations.ACTOR).get(0)));
            }
            return;
        }
        for (int i = 0; i < sent.size(); i++) {
            recordedAttempt(sent.get(i), phases.get(i));
        }
    }

    /** An attempt's recorded outcome: the item's end, unless its short back-off is to be waited out and tried again. */
    private static void recordedAttempt(Item item, Phase phase) {
        item.phase = phase;
        if (waitsOutBackOff(phase)) {
            phase.described(item.span);
        } else {
            attempted(item, phase);
        }
    }

    private static void attempted(Item item, Phase phase) {
        item.phase = phase.withLookup(item.lookup);
        phase.described(item.span);
        item.outcome = item.phase.outcome();
    }

    /** A transient failure this drive recorded: whether its back-off is short enough to wait out is the loop's to say. */
    private static boolean waitsOutBackOff(Phase recorded) {
        return recorded.byThisCall() && recorded.operation().status() == OperationStatus.FAILED_RETRYABLE;
    }
}
