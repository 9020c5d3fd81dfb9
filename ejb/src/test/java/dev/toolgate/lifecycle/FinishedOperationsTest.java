package dev.toolgate.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.canonical.FingerprintSchemes;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the finished operations kept in memory may answer: only the same tenant's same key with the same payload, only
 * a finished row, and never once the row could have been purged; bounded in entries.
 */
class FinishedOperationsTest {

    private static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");
    private static final Duration RETENTION = Duration.ofDays(30);
    private static final String HASH = "a".repeat(64);

    private final FinishedOperations held = new FinishedOperations(1_000, Duration.ofMinutes(10), RETENTION);

    @Test
    void aFinishedRowIsAnsweredForTheSamePayload() {
        OperationView done = row("acme", "k", OperationStatus.SUCCEEDED, NOW);
        held.remember(done, NOW);

        assertEquals(done, held.replay("acme", "k", HASH, NOW.plusSeconds(1)));
    }

    @Test
    void aRowIsHeldWithoutItsPayloadAndOtherwiseAsRead() {
        OperationView read = row("acme", "k", OperationStatus.SUCCEEDED, NOW);
        OperationView done = new OperationView(read.tenant(), read.key(), read.agentId(), read.operation(), read.target(), read.status(),
                read.requestHash(), Json.createObjectBuilder().add("amount_minor", 125_000).add("customer", "ООО Ромашка").build(),
                List.of("card_number"), "ref-1", Json.createObjectBuilder().add("number", "00001").build(), null, 2, null, 3, null, 1,
                null, null, NOW.minusSeconds(5), NOW, NOW, "trace", "span", true, "approval-1");
        held.remember(done, NOW);

        OperationView answered = held.replay("acme", "k", HASH, NOW.plusSeconds(1));

        assertEquals(JsonValue.EMPTY_JSON_OBJECT, answered.payload(), "no replay answer shows it");
        assertEquals(List.of(), answered.withheldFields());
        assertEquals(new OperationView(done.tenant(), done.key(), done.agentId(), done.operation(), done.target(), done.status(),
                done.requestHash(), JsonValue.EMPTY_JSON_OBJECT, List.of(), done.targetObjectId(), done.result(), done.errorCode(),
                done.attemptCount(), done.leaseUntil(), done.leaseEpoch(), done.nextCheckAt(), done.reconcileCount(), done.settleAfter(),
                done.escalatedAt(), done.createdAt(), done.updatedAt(), done.completedAt(), done.traceId(), done.spanId(),
                done.approvalRequired(), done.approvalId()), answered, "everything an answer reads, as the journal holds it");
    }

    @Test
    void anotherPayloadAnotherTenantOrAnotherKeyIsLeftToTheJournal() {
        held.remember(row("acme", "k", OperationStatus.SUCCEEDED, NOW), NOW);

        assertNull(held.replay("acme", "k", "b".repeat(64), NOW), "another payload is refused under the row lock, never from memory");
        assertNull(held.replay("globex", "k", HASH, NOW), "another tenant's key of the same name");
        assertNull(held.replay("acme", "k2", HASH, NOW));
    }

    @Test
    void aRowCapturedUnderAnotherSchemeIsLeftToTheJournal() {
        String newerScheme = "s2:" + HASH;
        held.remember(row("acme", "k", OperationStatus.SUCCEEDED, NOW, newerScheme), NOW);

        assertEquals(FingerprintSchemes.Match.UNCHECKABLE, FingerprintSchemes.match(newerScheme, HASH));
        assertNull(held.replay("acme", "k", HASH, NOW), "only an instance of the newer release can compare it");
    }

    @Test
    void aRowNotFinishedIsNeverKept() {
        for (OperationStatus status : List.of(OperationStatus.STARTED, OperationStatus.UNKNOWN, OperationStatus.FAILED_RETRYABLE,
                OperationStatus.PENDING_APPROVAL)) {
            held.remember(row("acme", "k-" + status, status, NOW), NOW);
            assertNull(held.replay("acme", "k-" + status, HASH, NOW), status + " changes again: the journal decides it");
        }
        assertEquals(0, held.size());
    }

    @Test
    void anEntryLapsesAfterItsTime() {
        held.remember(row("acme", "k", OperationStatus.FAILED_FINAL, NOW), NOW);

        assertTrue(held.replay("acme", "k", HASH, NOW.plus(Duration.ofMinutes(10)).minusMillis(1)) != null);
        assertNull(held.replay("acme", "k", HASH, NOW.plus(Duration.ofMinutes(10))));
        assertEquals(0, held.size(), "a lapsed entry is dropped when found");
    }

    @Test
    void aRowNearItsPurgeIsKeptOnlyUntilTheMarginBeforeIt() {
        Instant completed = NOW.minus(RETENTION).plus(FinishedOperations.PURGE_MARGIN).plusSeconds(60);
        held.remember(row("acme", "k", OperationStatus.SUCCEEDED, completed), NOW);

        assertTrue(held.replay("acme", "k", HASH, NOW.plusSeconds(59)) != null);
        assertNull(held.replay("acme", "k", HASH, NOW.plusSeconds(60)), "past completed + retention − margin: the purge may take it");
    }

    @Test
    void aRowAlreadyPurgeableIsNotKept() {
        held.remember(row("acme", "k", OperationStatus.SUCCEEDED, NOW.minus(RETENTION)), NOW);

        assertNull(held.replay("acme", "k", HASH, NOW));
        assertEquals(0, held.size());
    }

    @Test
    void theLeastRecentlyUsedGoWhenFull() {
        FinishedOperations small = new FinishedOperations(FinishedOperations.STRIPES, Duration.ofMinutes(10), RETENTION);
        for (int i = 0; i < 10 * FinishedOperations.STRIPES; i++) {
            small.remember(row("acme", "k" + i, OperationStatus.SUCCEEDED, NOW), NOW);
        }

        assertTrue(small.size() <= FinishedOperations.STRIPES, "held: " + small.size());
    }

    @Test
    void noEntriesMeansNothingIsKept() {
        FinishedOperations off = new FinishedOperations(0, Duration.ofMinutes(10), RETENTION);
        off.remember(row("acme", "k", OperationStatus.SUCCEEDED, NOW), NOW);

        assertNull(off.replay("acme", "k", HASH, NOW));
    }

    private static OperationView row(String tenant, String key, OperationStatus status, Instant completed) {
        return row(tenant, key, status, completed, HASH);
    }

    private static OperationView row(String tenant, String key, OperationStatus status, Instant completed, String hash) {
        return new OperationView(tenant, key, "agent-a", "invoice.create", "1c", status, hash, JsonValue.EMPTY_JSON_OBJECT, List.of(),
                null, null, null, 1, null, 1, null, 0, null, null, completed, completed, status.isTerminal() ? completed : null,
                null, null, false, null);
    }
}
