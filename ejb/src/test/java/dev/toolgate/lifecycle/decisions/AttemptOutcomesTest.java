package dev.toolgate.lifecycle.decisions;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.RetryPolicy;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

/** One test per row of the attempt-outcome table ({@link AttemptOutcomes}). */
class AttemptOutcomesTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final RetryPolicy POLICY = new RetryPolicy(3, Duration.ofMillis(500), 2.0, Duration.ofSeconds(5), false);

    @Test
    void aSuccessSettlesWithTheObjectAndItsResult() {
        Transition to = of(new Outcome.Succeeded("ref-1", JsonValue.EMPTY_JSON_OBJECT, 201), 1);
        assertEquals(OperationStatus.SUCCEEDED, to.status());
        assertEquals("ref-1", to.objectId());
        assertNull(to.nextCheckAt());
    }

    @Test
    void aRefusalIsFinalWithTheTargetsCode() {
        Transition to = of(new Outcome.Rejected("target_rejected", "HTTP 400", 400), 1);
        assertEquals(OperationStatus.FAILED_FINAL, to.status());
        assertEquals("target_rejected", to.errorCode());
        assertEquals("HTTP 400", to.result().getString("detail"));
    }

    @Test
    void aTransientFailureWithBudgetLeftWaitsOutTheBackOff() {
        Transition to = of(new Outcome.Transient("connect_refused", null, null), 1);
        assertEquals(OperationStatus.FAILED_RETRYABLE, to.status());
        assertEquals(NOW.plusMillis(500), to.nextCheckAt());
    }

    @Test
    void aTargetsRetryAfterLongerThanTheBackOffIsHonoured() {
        Transition to = of(new Outcome.Transient("target_rate_limited", Duration.ofSeconds(7), 429), 1);
        assertEquals(NOW.plusSeconds(7), to.nextCheckAt());
    }

    @Test
    void aTransientFailureOnTheLastAttemptExhaustsTheBudgetWithNoneExecuted() {
        Transition to = of(new Outcome.Transient("connect_refused", null, null), 3);
        assertEquals(OperationStatus.FAILED_FINAL, to.status());
        assertEquals("retries_exhausted", to.errorCode());
        assertEquals("3 attempts, none executed; the last: connect_refused", to.result().getString("detail"));
    }

    @Test
    void pendingAtTheTargetIsUnknownLookedAtAfterItsHintAndNeverResent() {
        Transition hinted = of(new Outcome.Pending("pay-1", Duration.ofSeconds(3), 202), 1);
        assertEquals(OperationStatus.UNKNOWN, hinted.status());
        assertEquals("pay-1", hinted.objectId());
        assertEquals("target_pending", hinted.errorCode());
        assertEquals(NOW.plusSeconds(3), hinted.nextCheckAt());
        assertEquals(NOW.plusMillis(500), of(new Outcome.Pending(null, null, 200), 1).nextCheckAt(), "no hint: the first back-off");
    }

    @Test
    void anUnknownOutcomeIsLookedUpAtOnce() {
        Transition to = of(new Outcome.Unknown("response_timeout", null), 3);
        assertEquals(OperationStatus.UNKNOWN, to.status());
        assertEquals("response_timeout", to.errorCode());
        assertEquals(NOW, to.nextCheckAt());
    }

    @Test
    void onlyASuccessSettlesARowAfterTheAttemptsLeaseLapsed() {
        assertTrue(AttemptOutcomes.settlesAfterLeaseLapsed(of(new Outcome.Succeeded("ref-1", JsonValue.EMPTY_JSON_OBJECT, 201), 1)));
        assertFalse(AttemptOutcomes.settlesAfterLeaseLapsed(of(new Outcome.Rejected("x", "y", 400), 1)));
        assertFalse(AttemptOutcomes.settlesAfterLeaseLapsed(of(new Outcome.Unknown("response_timeout", null), 1)));
        assertFalse(AttemptOutcomes.settlesAfterLeaseLapsed(of(new Outcome.Transient("connect_refused", null, null), 1)));
    }

    @Test
    void onlyALateUnknownMovesTheSettleWindow() {
        assertTrue(AttemptOutcomes.extendsSettleWindow(new Outcome.Unknown("response_timeout", null)));
        assertFalse(AttemptOutcomes.extendsSettleWindow(new Outcome.Transient("connect_refused", null, null)));
        assertFalse(AttemptOutcomes.extendsSettleWindow(new Outcome.Pending("pay-1", null, 200)));
        assertFalse(AttemptOutcomes.extendsSettleWindow(new Outcome.Succeeded("ref-1", JsonValue.EMPTY_JSON_OBJECT, 201)));
    }

    @Test
    void aRefusedSuccessContradictsAnyRowThatDoesNotHoldItsObject() {
        Transition success = of(new Outcome.Succeeded("ref-1", JsonValue.EMPTY_JSON_OBJECT, 201), 1);
        assertTrue(AttemptOutcomes.contradicts(success, row(OperationStatus.UNKNOWN, null)), "a later attempt's unknown");
        assertTrue(AttemptOutcomes.contradicts(success, row(OperationStatus.FAILED_FINAL, null)), "a look-up said nothing happened");
        assertTrue(AttemptOutcomes.contradicts(success, row(OperationStatus.SUCCEEDED, "ref-2")), "a second object");
        assertFalse(AttemptOutcomes.contradicts(success, row(OperationStatus.SUCCEEDED, "ref-1")), "the same object, found meanwhile");
        assertFalse(AttemptOutcomes.contradicts(of(new Outcome.Rejected("x", "y", 400), 1), row(OperationStatus.UNKNOWN, null)));
    }

    private static dev.toolgate.operation.OperationView row(OperationStatus status, String objectId) {
        return new OperationView("acme", "k", "agent-a", "invoice.create", "1c", status, "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT,
                java.util.List.of(), objectId, null, null, 2, null, 3, null, 0, null, null, NOW, NOW, null, null, null, false, null);
    }

    private static Transition of(Outcome outcome, int attempt) {
        return AttemptOutcomes.transition(outcome, attempt, POLICY, NOW, () -> 0.5);
    }
}
