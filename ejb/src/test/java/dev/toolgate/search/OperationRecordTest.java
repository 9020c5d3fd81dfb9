package dev.toolgate.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.operation.EventView;
import dev.toolgate.targets.Lookup;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

/** What one operation's record says of its look-ups by key: which events they wrote, and the duplicates they found. */
class OperationRecordTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    @Test
    void readsTheDuplicatesOfEveryLookUpOnceFirstSeenFirst() {
        List<EventView> events = List.of(event(1, "captured", "2 objects carry this key: [not, a-look-up]"),
                event(2, "reconciled", new Lookup.Ambiguous(List.of("b", "a")).describe()),
                event(3, "escalated", "duplicate_suspected: " + new Lookup.Ambiguous(List.of("a", "c")).describe()),
                event(4, "reconciled", null));
        assertEquals(List.of("b", "a", "c"), record(events).duplicates(), "only look-ups' events are evidence of a duplicate");
        assertEquals(List.of(), record(List.of()).duplicates());
    }

    @Test
    void listsOnlyTheEventsOfLookUpsOldestFirst() {
        List<EventView> events = List.of(event(1, "captured", null), event(2, "lease_expired", null), event(3, "outcome", null),
                event(4, "reconcile_started", null), event(5, "reconciled", null), event(6, "escalated", null));
        assertEquals(List.of(2L, 4L, 5L, 6L), record(events).lookUps().stream().map(EventView::id).toList());
    }

    private static OperationRecords.OperationRecord record(List<EventView> events) {
        return new OperationRecords.OperationRecord(null, events, null);
    }

    private static EventView event(long id, String kind, String detail) {
        return new EventView(id, NOW.minusSeconds(3600 - id * 60), kind, 1, "unknown", null, null, null, "reconciler", detail, null);
    }
}
