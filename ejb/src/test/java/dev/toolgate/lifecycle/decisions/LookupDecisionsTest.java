package dev.toolgate.lifecycle.decisions;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicy;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** One test per row of the look-up table ({@link LookupDecisions}). */
class LookupDecisionsTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final RetryPolicy POLICY = new RetryPolicy(3, Duration.ofMillis(500), 2.0, Duration.ofSeconds(5), false);
    private static final int LIMIT = 3;
    private static final OperationView LEASED = row(OperationStatus.UNKNOWN, 1, 2, null, NOW.minusSeconds(1), List.of());

    @Test
    void refusesWhenTheOperationIsNoLongerUnknown() {
        OperationView settled = row(OperationStatus.SUCCEEDED, 1, 2, null, null, List.of());
        assertInstanceOf(LookupDecision.Refused.class, decide(settled, new Lookup.Absent(), ApprovalStanding.NOT_REQUIRED, true));
    }

    @Test
    void refusesWhenAPersonMustSettleAnEscalation() {
        OperationView escalated = row(OperationStatus.UNKNOWN, 1, 2, NOW.minusSeconds(5), NOW.minusSeconds(1), List.of());
        assertInstanceOf(LookupDecision.Refused.class, decide(escalated, found(), null, true), "a Found never overwrites an escalation");
        assertInstanceOf(LookupDecision.Refused.class, decide(escalated, new Lookup.Absent(), ApprovalStanding.NOT_REQUIRED, true));
    }

    @Test
    void refusesWhenAnotherLookUpOrAttemptHoldsTheLease() {
        OperationView takenOver = row(OperationStatus.UNKNOWN, 1, 3, null, NOW.minusSeconds(1), List.of());
        assertInstanceOf(LookupDecision.Refused.class, decide(takenOver, new Lookup.Absent(), ApprovalStanding.NOT_REQUIRED, true));
        OperationView laterAttempt = row(OperationStatus.UNKNOWN, 2, 2, null, NOW.minusSeconds(1), List.of());
        assertInstanceOf(LookupDecision.Refused.class, decide(laterAttempt, found(), null, true));
    }

    @Test
    void settlesSucceededWhenFound() {
        LookupDecision.Settle settle = assertInstanceOf(LookupDecision.Settle.class, decide(LEASED, found(), null, true));
        assertEquals(OperationStatus.SUCCEEDED, settle.to().status());
        assertEquals("ref-1", settle.to().objectId());
    }

    @Test
    void settlesFailedFinalWhenTheTargetsObjectFailed() {
        LookupDecision.Settle settle = assertInstanceOf(LookupDecision.Settle.class,
                decide(LEASED, new Lookup.Failed("pay-1", "canceled", "the payment was canceled"), null, true));
        assertEquals(OperationStatus.FAILED_FINAL, settle.to().status());
        assertEquals("canceled", settle.to().errorCode());
    }

    @Test
    void neverResendsWhenTheTargetNamedAnObjectTheLookUpCannotFind() {
        OperationView pending = new OperationView("acme", "k", "agent-a", "payment.create", "yookassa", OperationStatus.UNKNOWN,
                "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT, List.of(), "pay-1", null, "target_pending", 1, NOW.plusSeconds(30), 2, null,
                0, NOW.minusSeconds(1), null, NOW, NOW, null, null, null, false, null);
        assertEquals(new LookupDecision.Postpone("named_object_not_found", false),
                LookupDecisions.decide(LEASED, pending, new Lookup.Absent(), ApprovalStanding.NOT_REQUIRED, POLICY, LIMIT, true, NOW));
    }

    @Test
    void waitsOutTheSettleWindowWhenAbsentTooSoon() {
        OperationView fresh = row(OperationStatus.UNKNOWN, 1, 2, null, NOW.plusSeconds(10), List.of());
        assertInstanceOf(LookupDecision.AwaitSettle.class, decide(fresh, new Lookup.Absent(), ApprovalStanding.NOT_REQUIRED, true));
    }

    @Test
    void exhaustsTheBudgetWhenAbsentAfterTheLastAttempt() {
        OperationView last = row(OperationStatus.UNKNOWN, 3, 2, null, NOW.minusSeconds(1), List.of());
        LookupDecision.Settle settle = assertInstanceOf(LookupDecision.Settle.class,
                LookupDecisions.decide(last, last, new Lookup.Absent(), ApprovalStanding.NOT_REQUIRED, POLICY, LIMIT, true, NOW));
        assertEquals("retries_exhausted", settle.to().errorCode());
    }

    @Test
    void failsForGoodWithNothingSentWhenTheApprovalLapsed() {
        for (ApprovalStanding lapsed : List.of(ApprovalStanding.REVOKED, ApprovalStanding.EXPIRED)) {
            LookupDecision.Settle settle = assertInstanceOf(LookupDecision.Settle.class, decide(LEASED, new Lookup.Absent(), lapsed, true));
            assertEquals(OperationStatus.FAILED_FINAL, settle.to().status());
            assertEquals(lapsed.lapseCode(), settle.to().errorCode());
        }
    }

    @Test
    void waitsForTheCallerWhenTheResendNeedsWithheldFields() {
        LookupDecision.Settle settle = assertInstanceOf(LookupDecision.Settle.class,
                decide(LEASED, new Lookup.Absent(), ApprovalStanding.NOT_REQUIRED, false));
        assertEquals(OperationStatus.FAILED_RETRYABLE, settle.to().status());
        assertEquals("awaiting_caller", settle.to().errorCode());
    }

    @Test
    void sendsTheNextAttemptWhenAbsentAfterTheSettleWindow() {
        assertInstanceOf(LookupDecision.Retry.class, decide(LEASED, new Lookup.Absent(), ApprovalStanding.ACTIVE, true));
    }

    @Test
    void escalatesADuplicateAtOnce() {
        assertEquals(new LookupDecision.Postpone("duplicate_effect", true),
                decide(LEASED, new Lookup.Ambiguous(List.of("ref-1", "ref-2")), null, true));
    }

    @Test
    void escalatesWhenTheLookUpsOfAnAttemptReachTheLimit() {
        OperationView third = row(OperationStatus.UNKNOWN, 1, 2, null, NOW.minusSeconds(1), List.of(), 2);
        assertEquals(new LookupDecision.Postpone("target_pending", true),
                LookupDecisions.decide(third, third, new Lookup.Pending("processing"), null, POLICY, LIMIT, true, NOW));
    }

    @Test
    void backsOffWhilePendingOrUnavailable() {
        assertEquals(new LookupDecision.Postpone("target_pending", false), decide(LEASED, new Lookup.Pending("processing"), null, true));
        assertEquals(new LookupDecision.Postpone("adapter_error", false), decide(LEASED, new Lookup.Unavailable("adapter_error"), null, true));
    }

    @Test
    void releasesALookUpMadeBeforeItWasDueThatLearnedNothingWithoutCountingIt() {
        OperationView notDue = notDue(null, LIMIT - 1); // a notification's look-up; the next one would escalate if counted
        assertEquals(new LookupDecision.Release("target_pending"),
                LookupDecisions.decide(notDue, notDue, new Lookup.Pending("processing"), null, POLICY, LIMIT, true, NOW));
        assertEquals(new LookupDecision.Release("target_http_503"),
                LookupDecisions.decide(notDue, notDue, new Lookup.Unavailable("target_http_503"), null, POLICY, LIMIT, true, NOW));
        OperationView named = notDue("pay-1", 0);
        assertEquals(new LookupDecision.Release("named_object_not_found"),
                LookupDecisions.decide(named, named, new Lookup.Absent(), null, POLICY, LIMIT, true, NOW));
    }

    @Test
    void anEarlyLookUpStillSettlesWhatItFindsAndEscalatesADuplicate() {
        OperationView notDue = notDue(null, 0);
        assertInstanceOf(LookupDecision.Settle.class, LookupDecisions.decide(notDue, notDue, found(), null, POLICY, LIMIT, true, NOW));
        assertEquals(new LookupDecision.Postpone("duplicate_effect", true), LookupDecisions.decide(notDue, notDue,
                new Lookup.Ambiguous(List.of("ref-1", "ref-2")), null, POLICY, LIMIT, true, NOW));
    }

    /** An unknown row whose next look-up is due in a minute, with {@code lookUpsMade} counted. */
    private static OperationView notDue(String objectId, int lookUpsMade) {
        return new OperationView("acme", "k", "agent-a", "payment.create", "yookassa", OperationStatus.UNKNOWN, "a".repeat(64),
                JsonValue.EMPTY_JSON_OBJECT, List.of(), objectId, null, null, 1, NOW.plusSeconds(30), 2, NOW.plusSeconds(60),
                lookUpsMade, NOW.minusSeconds(1), null, NOW, NOW, null, null, null, false, null);
    }

    private static LookupDecision decide(OperationView current, Lookup lookup, ApprovalStanding standing, boolean canResend) {
        return LookupDecisions.decide(LEASED, current, lookup, standing, POLICY, LIMIT, canResend, NOW);
    }

    private static Lookup found() {
        return new Lookup.Found("ref-1", JsonValue.EMPTY_JSON_OBJECT);
    }

    private static OperationView row(OperationStatus status, int attempt, long epoch, Instant escalatedAt, Instant settleAfter,
                                     List<String> withheld) {
        return row(status, attempt, epoch, escalatedAt, settleAfter, withheld, 0);
    }

    private static OperationView row(OperationStatus status, int attempt, long epoch, Instant escalatedAt, Instant settleAfter,
                                     List<String> withheld, int lookUpsMade) {
        return new OperationView("acme", "k", "agent-a", "invoice.create", "1c", status, "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT,
                withheld, status == OperationStatus.SUCCEEDED ? "ref-1" : null, null, null, attempt, NOW.plusSeconds(30), epoch, null,
                lookUpsMade, settleAfter, escalatedAt, NOW, NOW, null, null, null, false, null);
    }
}
