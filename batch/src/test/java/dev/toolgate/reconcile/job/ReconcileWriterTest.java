package dev.toolgate.reconcile.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.journal.JournalSettings;
import dev.toolgate.lifecycle.decisions.CaptureDecision;
import dev.toolgate.lifecycle.ConcurrentLookups;
import dev.toolgate.lifecycle.Dispatcher;
import dev.toolgate.lifecycle.LeaseRenewals;
import dev.toolgate.lifecycle.OperationLoop;
import dev.toolgate.lifecycle.Phase;
import dev.toolgate.lifecycle.Renewal;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.registry.TargetRegistry;
import dev.toolgate.targets.Outcome;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.Metric;
import jakarta.batch.runtime.context.StepContext;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The reconcile job's turns over one chunk, with the loop's phases played by a script: what is asked, recorded and sent,
 * in which order, and how each item is counted — above all when a chunk's record fails, or an item's lease is lost.
 */
class ReconcileWriterTest {

    private final Set<String> asked = ConcurrentHashMap.newKeySet();
    private final List<List<String>> lookUpRecords = new ArrayList<>();
    private final List<List<String>> outcomeRecords = new ArrayList<>();
    private final Set<String> sent = ConcurrentHashMap.newKeySet();
    private final Set<String> failsAlone = ConcurrentHashMap.newKeySet();
    private final Set<String> absentAt = ConcurrentHashMap.newKeySet();
    private final Set<String> takenOver = ConcurrentHashMap.newKeySet();
    private final List<List<String>> askedTogether = new ArrayList<>();
    private int batch = 1;
    private boolean sharedLookUpsThrow;

    static {
        Logger.getLogger(ReconcileWriter.class.getName()).setLevel(Level.OFF); // the incidents this test causes on purpose
    }

    @Test
    void aChunkIsAskedThenRecordedTogetherInTheOrderOfItsKeysThenItsAbsentItemsSentAndRecordedTogether() {
        absentAt.add("k-b");

        Map<String, Integer> counts = write(leased("k-c"), leased("k-a"), leased("k-b"));

        assertEquals(Set.of("k-a", "k-b", "k-c"), asked);
        assertEquals(List.of(List.of("k-a", "k-b", "k-c")), lookUpRecords, "one record for the chunk, in key order");
        assertEquals(Set.of("k-b"), sent, "only what was found absent is sent again");
        assertEquals(List.of(List.of("k-b")), outcomeRecords);
        assertEquals(Map.of("found", 2, "sent", 1), counts);
    }

    @Test
    void aChunkWhoseRecordFailsIsRecordedItemByItemAndOnlyTheItemThatFailsAloneIsAnError() {
        failsAlone.add("k-b");

        Map<String, Integer> counts = write(leased("k-a"), leased("k-b"), leased("k-c"));

        assertEquals(List.of(List.of("k-a", "k-b", "k-c"), List.of("k-a"), List.of("k-b"), List.of("k-c")), lookUpRecords);
        assertEquals(Map.of("found", 2, "error", 1), counts);
    }

    @Test
    void anItemTakenOverBeforeItIsAskedIsNeitherAskedNorRecordedAndIsCountedTakenOver() {
        takenOver.add("k-b");
        OperationView lapsing = leased("k-b", Instant.now().plusSeconds(2)); // less than half of its 30 s lease left

        Map<String, Integer> counts = write(leased("k-a"), lapsing);

        assertEquals(Set.of("k-a"), asked);
        assertEquals(List.of(List.of("k-a")), lookUpRecords);
        assertEquals(Map.of("found", 1, "taken_over", 1), counts);
    }

    @Test
    void itemsOfOneTargetsOperationAreAskedTogetherUpToItsBatchInKeyOrderAndAnyOtherAlone() {
        batch = 2;
        takenOver.add("k-c");
        absentAt.add("k-e");

        Map<String, Integer> counts = write(leased("k-e"), leased("k-d"), leased("k-c", Instant.now().plusSeconds(2)), leased("k-b"),
                leased("k-a"), leased("k-x", "invoice.post"));

        assertEquals(List.of(List.of("k-a", "k-b")), askedTogether, "pairs in key order");
        assertEquals(Set.of("k-d", "k-e", "k-x"), asked,
                "asked alone: the other of a pair one of which was taken over, the last, and another operation's");
        assertEquals(List.of(List.of("k-a", "k-b", "k-d", "k-e", "k-x")), lookUpRecords, "all recorded together");
        assertEquals(Set.of("k-e"), sent);
        assertEquals(Map.of("found", 4, "sent", 1, "taken_over", 1), counts);
    }

    @Test
    void aSharedLookUpThatThrowsIsAnErrorForItsItemsOnly() {
        batch = 2;
        sharedLookUpsThrow = true;

        Map<String, Integer> counts = write(leased("k-a"), leased("k-b"), leased("k-c"));

        assertEquals(Set.of("k-c"), asked);
        assertEquals(List.of(List.of("k-c")), lookUpRecords, "the pair left to its leases, the rest recorded");
        assertEquals(Map.of("found", 1, "error", 2), counts);
    }

    private Map<String, Integer> write(OperationView... claimed) {
        ReconcileWriter writer = new ReconcileWriter();
        writer.loop = new ScriptedLoop();
        writer.lookups = new ConcurrentLookups() {
            @Override
            public <T, R> List<R> each(List<T> items, Function<T, String> targetOf, Function<T, R> work) {
                return items.stream().map(work).toList(); // one lane: the order is the items'
            }
        };
        writer.renewals = new LeaseRenewals() {
            @Override
            public Optional<OperationView> renewLookUp(OperationView item) {
                return takenOver.contains(item.key()) ? Optional.empty() : Optional.of(item);
            }

            @Override
            public Renewal renewAttempt(OperationView attempt, boolean checkApproval, String actor) {
                return new Renewal.Held(attempt);
            }
        };
        writer.settings = new JournalSettings() {
            @Override
            public Duration lease() {
                return Duration.ofSeconds(30);
            }
        };
        writer.targets = new TargetRegistry() {
            @Override
            public int lookupBatch(String target, String operation) {
                return "invoice.create".equals(operation) ? batch : 1;
            }
        };
        Step step = new Step();
        writer.step = step;
        writer.writeItems(List.of((Object[]) claimed));
        return ReconcileCounts.totals(step.persistent);
    }

    /** The loop's turns as this test scripts them: found unless absent, sent successfully, recorded as given. */
    private final class ScriptedLoop extends OperationLoop {

        @Override
        public Lookup lookUp(OperationView leased) {
            asked.add(leased.key());
            return absentAt.contains(leased.key()) ? new Lookup.Absent() : new Lookup.Found("ref-" + leased.key(), JsonValue.EMPTY_JSON_OBJECT);
        }

        @Override
        public List<Lookup> lookUpAll(List<OperationView> leased, List<dev.toolgate.trace.Step> items) {
            assertEquals(leased.size(), items.size(), "each row with its span");
            askedTogether.add(leased.stream().map(OperationView::key).toList());
            if (sharedLookUpsThrow) {
                throw new IllegalStateException("the adapter broke");
            }
            return leased.stream().map(row -> absentAt.contains(row.key()) ? (Lookup) new Lookup.Absent()
                    : new Lookup.Found("ref-" + row.key(), JsonValue.EMPTY_JSON_OBJECT)).toList();
        }

        @Override
        public List<Phase> recordLookUps(List<OperationView> leased, List<Lookup> lookups, String actor) {
            List<String> keys = leased.stream().map(OperationView::key).toList();
            synchronized (lookUpRecords) {
                lookUpRecords.add(keys);
            }
            if (keys.size() > 1 && keys.stream().anyMatch(failsAlone::contains) || keys.size() == 1 && failsAlone.contains(keys.get(0))) {
                throw new IllegalStateException("the journal refused the record"); // the chunk's, then that item's alone
            }
            List<Phase> phases = new ArrayList<>();
            for (int i = 0; i < leased.size(); i++) {
                OperationView row = leased.get(i);
                boolean absent = lookups.get(i) instanceof Lookup.Absent;
                OperationView after = absent ? with(row, OperationStatus.STARTED) : with(row, OperationStatus.SUCCEEDED);
                phases.add(new Phase(new CaptureDecision.Reconcile(), OperationStatus.UNKNOWN, after, absent, lookups.get(i)));
            }
            return phases;
        }

        @Override
        public Dispatcher.Sent send(Phase leased, String actor) {
            sent.add(leased.operation().key());
            return new Dispatcher.Sent(leased.operation(), new Outcome.Succeeded("doc", JsonValue.EMPTY_JSON_OBJECT, 201),
                    Duration.ofMillis(3), null);
        }

        @Override
        public List<Phase> recordOutcomes(List<Dispatcher.Sent> sentNow, String actor) {
            outcomeRecords.add(sentNow.stream().map(each -> each.attempt().key()).toList());
            return sentNow.stream().map(each -> new Phase(new CaptureDecision.Execute(), OperationStatus.STARTED,
                    with(each.attempt(), OperationStatus.SUCCEEDED), true, null)).toList();
        }
    }

    private static OperationView leased(String key) {
        return leased(key, Instant.now().plusSeconds(30));
    }

    private static OperationView leased(String key, String operation) {
        return leased(key, Instant.now().plusSeconds(30), operation);
    }

    private static OperationView leased(String key, Instant leaseUntil) {
        return leased(key, leaseUntil, "invoice.create");
    }

    private static OperationView leased(String key, Instant leaseUntil, String operation) {
        return new OperationView("acme", key, null, operation, "1c", OperationStatus.UNKNOWN, "h".repeat(64), null, List.of(),
                null, null, null, 1, leaseUntil, 2, null, 0, null, null, null, null, null, "4bf92f3577b34da6a3ce929d0e0e4736", null,
                false, null);
    }

    private static OperationView with(OperationView row, OperationStatus status) {
        return new OperationView(row.tenant(), row.key(), row.agentId(), row.operation(), row.target(), status, row.requestHash(),
                row.payload(), row.withheldFields(), row.targetObjectId(), row.result(), row.errorCode(), row.attemptCount(),
                row.leaseUntil(), row.leaseEpoch(), row.nextCheckAt(), row.reconcileCount(), row.settleAfter(), row.escalatedAt(),
                row.createdAt(), row.updatedAt(), row.completedAt(), row.traceId(), row.spanId(), row.approvalRequired(), row.approvalId());
    }

    /** The step's context as the batch runtime keeps it: only its persistent user data is used. */
    private static final class Step implements StepContext {
        Serializable persistent;

        @Override
        public String getStepName() {
            return "reconcile";
        }

        @Override
        public Object getTransientUserData() {
            return null;
        }

        @Override
        public void setTransientUserData(Object data) {
        }

        @Override
        public long getStepExecutionId() {
            return 1;
        }

        @Override
        public Properties getProperties() {
            return new Properties();
        }

        @Override
        public Serializable getPersistentUserData() {
            return persistent;
        }

        @Override
        public void setPersistentUserData(Serializable data) {
            persistent = data;
        }

        @Override
        public BatchStatus getBatchStatus() {
            return BatchStatus.STARTED;
        }

        @Override
        public String getExitStatus() {
            return null;
        }

        @Override
        public void setExitStatus(String status) {
        }

        @Override
        public Exception getException() {
            return null;
        }

        @Override
        public Metric[] getMetrics() {
            return new Metric[0];
        }
    }
}
