package dev.toolgate.lifecycle.decisions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.lifecycle.decisions.NoticeDecisions.NoticeDecision;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

/** One test per row of the notification → decision table ({@link NoticeDecisions}). */
class NoticeDecisionsTest {

    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    @Test
    void aNotificationForNoOperationOfOursIsNotFound() {
        assertEquals("not_found", refused(null, "yookassa"));
    }

    @Test
    void aNotificationFromAnotherTargetThanTheOperationsIsNotFound() {
        assertEquals("not_found", refused(row(OperationStatus.UNKNOWN, null, null), "bitrix24"));
    }

    @Test
    void aNotificationWhoseObjectIsNotTheOneTheOperationRecordedIsRefused() {
        OperationView pending = new OperationView("acme", "k", "agent-a", "payment.create", "yookassa", OperationStatus.UNKNOWN,
                "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT, List.of(), "pay-1", null, null, 1, null, 1, null, 0, null, null, NOW, NOW,
                null, null, null, false, null);
        assertEquals("other_object", assertInstanceOf(NoticeDecision.Refuse.class,
                NoticeDecisions.decide(pending, "yookassa", "pay-2", NOW)).reason(), "a key hint naming the wrong operation");
        assertInstanceOf(NoticeDecision.LookUp.class, NoticeDecisions.decide(pending, "yookassa", "pay-1", NOW));
    }

    @Test
    void aLateOrRepeatedNotificationForASettledOperationChangesNothing() {
        assertEquals("settled", refused(row(OperationStatus.SUCCEEDED, null, null), "yookassa"));
        assertEquals("settled", refused(row(OperationStatus.FAILED_FINAL, null, null), "yookassa"));
    }

    @Test
    void anEscalatedOperationWaitsForAPersonWhateverTheTargetAnnounces() {
        assertEquals("escalated", refused(row(OperationStatus.UNKNOWN, null, NOW.minusSeconds(60)), "yookassa"));
    }

    @Test
    void aLeaseHeldBySomeoneElseIsLeftToItsHolder() {
        assertEquals("busy", refused(row(OperationStatus.UNKNOWN, NOW.plusSeconds(10), null), "yookassa"));
        assertEquals("busy", refused(row(OperationStatus.STARTED, NOW.plusSeconds(10), null), "yookassa"));
    }

    @Test
    void anOperationWithNothingOutAtTheTargetIsNotMovedByANotification() {
        assertEquals("not_outstanding", refused(row(OperationStatus.PENDING_APPROVAL, null, null), "yookassa"));
        assertEquals("not_outstanding", refused(row(OperationStatus.FAILED_RETRYABLE, null, null), "yookassa"));
    }

    @Test
    void anUnknownOperationWithNoLeaseOrALapsedOneIsLookedUp() {
        assertInstanceOf(NoticeDecision.LookUp.class, NoticeDecisions.decide(row(OperationStatus.UNKNOWN, null, null), "yookassa", null, NOW));
        assertInstanceOf(NoticeDecision.LookUp.class, NoticeDecisions.decide(row(OperationStatus.UNKNOWN, NOW, null), "yookassa", null, NOW));
    }

    @Test
    void aStartedOperationWhoseLeaseLapsedIsLookedUpNeverSentAgain() {
        assertInstanceOf(NoticeDecision.LookUp.class,
                NoticeDecisions.decide(row(OperationStatus.STARTED, NOW.minusSeconds(1), null), "yookassa", null, NOW));
    }

    private static String refused(OperationView row, String target) {
        return assertInstanceOf(NoticeDecision.Refuse.class, NoticeDecisions.decide(row, target, null, NOW)).reason();
    }

    private static OperationView row(OperationStatus status, Instant leaseUntil, Instant escalatedAt) {
        return new OperationView("acme", "k", "agent-a", "payment.create", "yookassa", status, "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT,
                List.of(), null, null, null, 1, leaseUntil, 1, null, 0, null, escalatedAt, NOW, NOW, null, null, null, false, null);
    }
}
