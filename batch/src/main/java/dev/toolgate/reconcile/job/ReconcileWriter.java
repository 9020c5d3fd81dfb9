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
 * Settles a chunk of claimed operations in turns (docs/lifecycle.md; docs/architecture.md, "The path of a reconcile
 * run") and counts the outcomes per tenant into the step's persistent user data, which
 * {@code GET /api/v1/reconciliations/{id}} shows. No transaction is held while a target is asked: the
 * {@link OperationLoop} is NOT_SUPPORTED, so the chunk's is suspended. Before its look-up and each record, an item's
 * lease is renewed once less than half is left; one taken over is skipped ({@code taken_over}), and the fenced writes
 * keep a slow holder's decision out. A failing item is counted ({@code error}) and left to its lease, never failing
 * the chunk; a chunk's record that fails is retried item by item. A crash between a send and its record leaves the row
 * started under its lease, which lapses and is looked up, as after a crash during the send.
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

    /** In the operation's own trace, joining the agent's call: the run's child, linked to the span that captured it. */
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

    /** Look-up units: one target's operation's items, up to {@link TargetRegistry#lookupBatch} a unit, in key order. */
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
     * The items still holding their look-up leases, each renewed once less than half is left (it waited behind the
     * chunk's slowest), so none is taken over before its answer is recorded; the fences would only catch it later.
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
