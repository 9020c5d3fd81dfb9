package dev.toolgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** One test per row of the state → answer table ({@link AgentAnswers}). */
class AgentAnswersTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    @Test
    void aSuccessIsDoneAndSaysWhetherItWasReplayed() {
        GatewayAnswer.Done done = assertInstanceOf(GatewayAnswer.Done.class, answer(row(OperationStatus.SUCCEEDED, null), true));
        assertEquals(GatewayAnswer.Ending.SUCCEEDED, done.ending());
        assertTrue(done.replayed());
    }

    @Test
    void aFailureSaysWhyFromTheRecordedCode() {
        assertEquals(GatewayAnswer.Ending.APPROVAL_LAPSED, ending("approval_revoked"));
        assertEquals(GatewayAnswer.Ending.APPROVAL_LAPSED, ending("approval_expired"));
        assertEquals(GatewayAnswer.Ending.RETRIES_EXHAUSTED, ending("retries_exhausted"));
        assertEquals(GatewayAnswer.Ending.REFUSED, ending("target_rejected"));
        assertEquals(GatewayAnswer.Ending.REFUSED, ending("resolved_failed"));
    }

    @Test
    void aDeclinedOperationEndsAsALapsedApprovalNotAsATargetsRefusal() {
        // nothing was sent: the agent is told a person withheld consent, not that the target refused
        assertEquals(GatewayAnswer.Ending.APPROVAL_LAPSED, AgentAnswers.endingOf("approval_declined"));
        assertEquals(GatewayAnswer.Ending.APPROVAL_LAPSED, ending("approval_declined"));
    }

    @Test
    void aRetryableFailureIsTriedLaterAfterItsBackOff() {
        OperationView row = row(OperationStatus.FAILED_RETRYABLE, "connect_refused", NOW.plusSeconds(4), null, null);
        assertEquals(Duration.ofSeconds(4), assertInstanceOf(GatewayAnswer.TryLater.class, answer(row, false)).retryAfter());
    }

    @Test
    void anUnknownIsAskedAgainAfterTheNextLookUpOrTheOneUnderWay() {
        OperationView due = row(OperationStatus.UNKNOWN, "response_timeout", NOW.plusSeconds(3), NOW.plusSeconds(8), null);
        GatewayAnswer.OutcomeUnknown unknown = assertInstanceOf(GatewayAnswer.OutcomeUnknown.class, answer(due, false));
        assertEquals(Duration.ofSeconds(8), unknown.retryAfter(), "a look-up holds the row until then");
        assertTrue(!unknown.escalated());
    }

    @Test
    void anUnknownWhoseTargetAnnouncesOutcomesIsAskedAgainSoonerAndSaysWhy() {
        OperationView pending = row(OperationStatus.UNKNOWN, "pending", NOW.plusSeconds(30), null, null);
        GatewayAnswer.OutcomeUnknown unknown = assertInstanceOf(GatewayAnswer.OutcomeUnknown.class,
                AgentAnswers.of(pending, false, NOW, Duration.ofSeconds(2)));
        assertEquals(Duration.ofSeconds(2), unknown.retryAfter(), "the notification starts the look-up at once");
        assertTrue(unknown.awaitingNotice());
    }

    @Test
    void anAgentAwaitingANoticeIsNotToldToPollFasterThanTheNoticeWait() {
        OperationView due = row(OperationStatus.UNKNOWN, "pending", NOW.plusSeconds(1), null, null);
        GatewayAnswer.OutcomeUnknown unknown = assertInstanceOf(GatewayAnswer.OutcomeUnknown.class,
                AgentAnswers.of(due, false, NOW, Duration.ofSeconds(2)));
        assertEquals(Duration.ofSeconds(2), unknown.retryAfter());
        assertTrue(!answerOf(due).awaitingNotice(), "without notifications nothing is awaited");
        assertEquals(Duration.ofSeconds(1), answerOf(due).retryAfter(), "and the next look-up is what the agent is told");
    }

    @Test
    void anEscalationAwaitsAPersonEvenWhenTheTargetAnnounces() {
        OperationView escalated = row(OperationStatus.UNKNOWN, "duplicate_effect", null, null, NOW.minusSeconds(60));
        GatewayAnswer.OutcomeUnknown unknown = assertInstanceOf(GatewayAnswer.OutcomeUnknown.class,
                AgentAnswers.of(escalated, false, NOW, Duration.ofSeconds(2)));
        assertEquals(AgentAnswers.ESCALATED_RETRY_AFTER, unknown.retryAfter());
        assertTrue(!unknown.awaitingNotice());
    }

    @Test
    void anEscalationWaitsForAPerson() {
        OperationView escalated = row(OperationStatus.UNKNOWN, "duplicate_effect", null, null, NOW.minusSeconds(60));
        GatewayAnswer.OutcomeUnknown unknown = assertInstanceOf(GatewayAnswer.OutcomeUnknown.class, answer(escalated, false));
        assertTrue(unknown.escalated());
        assertEquals(AgentAnswers.ESCALATED_RETRY_AFTER, unknown.retryAfter());
    }

    @Test
    void aStartedOperationIsInProgressUntilItsLeaseEnds() {
        OperationView started = row(OperationStatus.STARTED, null, null, NOW.plusSeconds(20), null);
        assertEquals(Duration.ofSeconds(20), assertInstanceOf(GatewayAnswer.InProgress.class, answer(started, false)).retryAfter());
    }

    @Test
    void aPendingApprovalAwaitsIt() {
        assertInstanceOf(GatewayAnswer.AwaitingApproval.class, answer(row(OperationStatus.PENDING_APPROVAL, null), false));
    }

    @Test
    void neverInvitesARetrySoonerThanASecond() {
        OperationView overdue = row(OperationStatus.FAILED_RETRYABLE, "connect_refused", NOW.minusSeconds(5), null, null);
        assertEquals(AgentAnswers.DEFAULT_RETRY_AFTER, assertInstanceOf(GatewayAnswer.TryLater.class, answer(overdue, false)).retryAfter());
    }

    private static GatewayAnswer.Ending ending(String code) {
        return assertInstanceOf(GatewayAnswer.Done.class, answer(row(OperationStatus.FAILED_FINAL, code), false)).ending();
    }

    private static GatewayAnswer.OutcomeUnknown answerOf(OperationView row) {
        return assertInstanceOf(GatewayAnswer.OutcomeUnknown.class, answer(row, false));
    }

    private static GatewayAnswer answer(OperationView row, boolean replayed) {
        return AgentAnswers.of(row, replayed, NOW);
    }

    private static OperationView row(OperationStatus status, String errorCode) {
        return row(status, errorCode, null, null, null);
    }

    private static OperationView row(OperationStatus status, String errorCode, Instant nextCheckAt, Instant leaseUntil, Instant escalatedAt) {
        return new OperationView("acme", "k", "agent-a", "invoice.create", "1c", status, "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT,
                List.of(), status == OperationStatus.SUCCEEDED ? "ref-1" : null, null, errorCode, 1, leaseUntil, 1, nextCheckAt, 0, null,
                escalatedAt, NOW, NOW, status.isTerminal() ? NOW : null, null, null, false, null);
    }
}
