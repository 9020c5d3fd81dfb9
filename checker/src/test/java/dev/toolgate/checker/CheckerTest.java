package dev.toolgate.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.checker.History.Answer;
import dev.toolgate.checker.History.Armed;
import dev.toolgate.checker.History.Away;
import dev.toolgate.checker.History.Create;
import dev.toolgate.checker.History.Operation;
import dev.toolgate.checker.History.Outage;
import dev.toolgate.checker.History.Row;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Recorded histories, each breaking one rule, must each be caught — by that rule alone; the same histories
 * with the break mended must pass. A checker that passes everything would fail here first.
 */
class CheckerTest {

    private static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");
    private static final Answer CREATED = answer(201, "succeeded", "obj-1", null, false, 0);
    private static final Answer REPLAYED = answer(200, "succeeded", "obj-1", null, false, 5);
    private static final Answer UNKNOWN = answer(202, "unknown", null, "outcome-unknown", true, 1);
    private static final Create SENT = new Create("none", true, false);
    private static final Create DROPPED = new Create("drop_response_after_commit", true, false);
    private static final Create RESET = new Create("reset_before_commit", false, false);
    private static final Row SUCCEEDED = new Row("succeeded", "obj-1", false);

    @Test
    void passesARunThatKeptEveryRule() {
        History history = new History(List.of(
                op("k-ok", List.of(CREATED, REPLAYED), SUCCEEDED, List.of("obj-1"), List.of(SENT), List.of()),
                op("k-dropped", List.of(UNKNOWN, REPLAYED), SUCCEEDED, List.of("obj-1"), List.of(DROPPED),
                        List.of(new Armed("drop_response_after_commit", 1, 1))),
                op("k-reset", List.of(CREATED), SUCCEEDED, List.of("obj-1"), List.of(RESET, SENT), List.of(new Armed("reset_before_commit", 1, 1))),
                op("k-final", List.of(answer(422, null, null, "target-rejected", false, 0)), new Row("failed_final", null, false),
                        List.of(), List.of(SENT), List.of()),
                op("k-never", List.of(answer(Answer.NO_ANSWER, null, null, null, false, 10), answer(404, null, null, null, false, 11),
                        answer(503, null, null, "gateway-stopping", true, 9)), null,
                        List.of(), List.of(), List.of()),
                op("k-outage", List.of(answer(503, null, null, "journal-unavailable", true, 20), CREATED), SUCCEEDED, List.of("obj-1"),
                        List.of(SENT), List.of()),
                op("k-approval", List.of(answer(202, "pending_approval", null, "approval-required", false, 0)),
                        new Row("pending_approval", null, false), List.of(), List.of(), List.of()),
                op("k-upsert", List.of(CREATED), SUCCEEDED, List.of("obj-1"),
                        List.of(new Create("drop_response_after_commit", true, true), new Create("none", true, true)), List.of())),
                List.of(new Outage(Away.GATEWAY, T0.plusSeconds(9), T0.plusSeconds(11)), new Outage(Away.JOURNAL, T0.plusSeconds(19), T0.plusSeconds(21))));

        Verdict verdict = Checker.judge(history);

        assertTrue(verdict.clean(), verdict.report());
        assertEquals(8, verdict.operations());
        assertEquals(13, verdict.answers());
    }

    @Test
    void catchesA500ToAnAgent() {
        caughtOnly(Rule.NO_SERVER_ERROR, op("k", List.of(answer(500, null, null, "internal", false, 0), CREATED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesA503OutsideAJournalOutage() {
        caughtOnly(Rule.NO_SERVER_ERROR, op("k", List.of(answer(503, null, null, "journal-unavailable", true, 30), CREATED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesACallLeftUnansweredWhileTheGatewayWasUp() {
        caughtOnly(Rule.NO_SERVER_ERROR, op("k", List.of(answer(Answer.NO_ANSWER, null, null, null, false, 3), CREATED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesGatewayStoppingWhileNoGatewayWasStopping() {
        caughtOnly(Rule.NO_SERVER_ERROR, op("k", List.of(answer(503, null, null, "gateway-stopping", true, 20), CREATED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesTheServersOwn500WhileTheGatewayWasUpButNotWhileItStarted() {
        caughtOnly(Rule.NO_SERVER_ERROR, op("k", List.of(answer(500, null, null, null, false, 3), CREATED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
        assertTrue(judge(op("k", List.of(answer(500, null, null, null, false, 10), CREATED), SUCCEEDED, List.of("obj-1"),
                List.of(SENT), List.of())).clean(), "inside the gateway's restart");
        caughtOnly(Rule.NO_SERVER_ERROR, op("k", List.of(answer(500, null, null, "internal-error", false, 10), CREATED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesABare404WhileTheGatewayWasUp() {
        caughtOnly(Rule.NO_SERVER_ERROR, op("k", List.of(answer(404, null, null, null, false, 3), CREATED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesTargetUnavailableWhereNoFaultRefusedTheRequest() {
        caughtOnly(Rule.NO_SERVER_ERROR, op("k", List.of(answer(503, null, null, "target-unavailable", true, 0), CREATED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesA500ToACallOnAProcess() {
        Verdict verdict = Checker.judge(new History(List.of(), List.of(), List.of(answer(201, "completed", null, null, false, 0),
                answer(500, null, null, "internal", false, 1))));
        assertEquals(Map.of(Rule.NO_SERVER_ERROR, 1L), verdict.counts(), verdict.report());
        assertEquals(2, verdict.answers());
    }

    @Test
    void catchesTargetUnavailableWhoseRefusingFaultNeverFired() {
        Verdict unfired = judge(op("k", List.of(answer(503, null, null, "target-unavailable", true, 0), CREATED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of(new Armed("status", 1, 0))));
        assertEquals(Map.of(Rule.NO_SERVER_ERROR, 1L, Rule.ARMED_FAULT_FIRED, 1L), unfired.counts(), unfired.report());
    }

    @Test
    void catchesAStatusThatDoesNotMatchItsProblem() {
        caughtOnly(Rule.NO_SERVER_ERROR, op("k", List.of(answer(500, null, null, "target-unavailable", true, 0), CREATED), SUCCEEDED,
                List.of("obj-1"), List.of(RESET, SENT), List.of(new Armed("reset_before_commit", 1, 1))));
    }

    @Test
    void catchesRetriesExhaustedWhereTheOperationWentOnToSucceed() {
        caughtOnly(Rule.REFUSAL_MATCHES_JOURNAL, op("k", List.of(answer(502, null, null, "retries-exhausted", false, 0)), SUCCEEDED,
                List.of("obj-1"), List.of(RESET, SENT), List.of(new Armed("reset_before_commit", 1, 1))));
    }

    @Test
    void catchesAnOperationWaitingForApprovalThatWasSentAlready() {
        caughtOnly(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op("k", List.of(answer(202, "pending_approval", null, "approval-required", false, 0)),
                new Row("pending_approval", null, false), List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesASuccessWhoseBodyNamesNoStatus() {
        caughtOnly(Rule.ACKNOWLEDGED_EXACTLY_ONCE, op("k", List.of(answer(201, null, null, null, false, 0), REPLAYED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesAnAcknowledgementThatNamesNoObject() {
        caughtOnly(Rule.ACKNOWLEDGED_EXACTLY_ONCE, op("k", List.of(answer(201, "succeeded", null, null, false, 0)), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesAnAcknowledgedOperationLostFromTheJournal() {
        caughtOnly(Rule.ACKNOWLEDGED_EXACTLY_ONCE, op("k", List.of(CREATED), null, List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesAnAcknowledgedOperationMissingAtItsTarget() {
        caughtOnly(Rule.ACKNOWLEDGED_EXACTLY_ONCE, op("k", List.of(CREATED), SUCCEEDED, List.of(), List.of(SENT), List.of()));
    }

    @Test
    void catchesAnAcknowledgedOperationMadeTwice() {
        Verdict verdict = judge(op("k", List.of(CREATED), SUCCEEDED, List.of("obj-1", "obj-2"), List.of(SENT, SENT), List.of()));
        assertEquals(Map.of(Rule.ACKNOWLEDGED_EXACTLY_ONCE, 1L, Rule.ONE_CREATE_SENT, 1L), verdict.counts(), verdict.report());
    }

    @Test
    void catchesTwoAnswersNamingTwoObjects() {
        // the journal and the target agree with the first answer: only the second one's object is wrong
        Verdict verdict = judge(op("k", List.of(CREATED, answer(200, "succeeded", "obj-2", null, false, 1)), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
        assertEquals(Map.of(Rule.ONE_STORED_RESULT, 1L), verdict.counts(), verdict.report());
    }

    @Test
    void catchesAnUnacknowledgedOperationLeftUnsettled() {
        caughtOnly(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op("k", List.of(UNKNOWN), new Row("unknown", null, false), List.of("obj-1"),
                List.of(DROPPED), List.of()));
    }

    @Test
    void catchesAnOperationLeftRetryableWithNobodyToRetryIt() {
        caughtOnly(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op("k", List.of(UNKNOWN), new Row("failed_retryable", null, false, "http_503"),
                List.of(), List.of(RESET), List.of()));
    }

    @Test
    void catchesAnEffectNeverJournaled() {
        caughtOnly(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op("k", List.of(answer(Answer.NO_ANSWER, null, null, null, false, 10)), null,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesAFinalFailureWhoseEffectExists() {
        caughtOnly(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op("k", List.of(UNKNOWN), new Row("failed_final", null, false), List.of("obj-1"),
                List.of(DROPPED), List.of()));
    }

    @Test
    void catchesARefusalTheJournalDoesNotBear() {
        caughtOnly(Rule.REFUSAL_MATCHES_JOURNAL, op("k", List.of(answer(422, null, null, "target-rejected", false, 0), REPLAYED), SUCCEEDED,
                List.of("obj-1"), List.of(SENT), List.of()));
    }

    @Test
    void catchesASecondSendTheTargetDeduplicated() {
        // the target kept one object (it deduplicates by its own key), but the gateway sent the create twice
        caughtOnly(Rule.ONE_CREATE_SENT, op("k", List.of(UNKNOWN, REPLAYED), SUCCEEDED, List.of("obj-1"), List.of(DROPPED, SENT),
                List.of(new Armed("drop_response_after_commit", 1, 1))));
    }

    @Test
    void catchesAnEscalationTheFaultPlanCannotCause() {
        caughtOnly(Rule.ESCALATION_WITHIN_PLAN, op("k", List.of(UNKNOWN), new Row("unknown", null, true), List.of(), List.of(SENT), List.of()));
    }

    @Test
    void allowsAnEscalationThePlanCanCause() {
        Operation escalated = new Operation("k", "1c", List.of(UNKNOWN), new Row("unknown", null, true), List.of(), List.of(SENT),
                List.of(), true);
        assertTrue(Checker.judge(new History(List.of(escalated), List.of())).clean());
    }

    @Test
    void excusesTheFaultOfAStepNeverReachedButNotARequestItMade() {
        Armed unfired = new Armed("status", 1, 0);
        Operation unreached = new Operation("k", "1c", List.of(), null, List.of(), List.of(), List.of(unfired), false, false);
        assertTrue(Checker.judge(new History(List.of(unreached), List.of())).clean());
        Operation reachedAfterAll = new Operation("k", "1c", List.of(), null, List.of(), List.of(RESET), List.of(unfired), false, false);
        assertEquals(Map.of(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, 1L), Checker.judge(new History(List.of(reachedAfterAll), List.of())).counts());
    }

    @Test
    void catchesAnArmedFaultThatNeverFired() {
        Operation op = op("k", List.of(CREATED), SUCCEEDED, List.of("obj-1"), List.of(SENT), List.of(new Armed("status", 1, 0)));
        caughtOnly(Rule.ARMED_FAULT_FIRED, op);
        String report = judge(op).report(); // what reached the target says whether the fault could have fired
        assertTrue(report.contains("status fired 0 of 1 times; 1 create(s) reached") && report.contains(", the row succeeded, the answers [201"),
                report);
    }

    private static void caughtOnly(Rule rule, Operation op) {
        Verdict verdict = judge(op);
        assertEquals(Map.of(rule, 1L), verdict.counts(), verdict.report());
        assertTrue(verdict.report().contains(op.key()), verdict.report());
    }

    private static Verdict judge(Operation op) {
        return Checker.judge(new History(List.of(op), List.of(new Outage(Away.GATEWAY, T0.plusSeconds(9), T0.plusSeconds(11)),
                new Outage(Away.JOURNAL, T0.plusSeconds(19), T0.plusSeconds(21)))));
    }

    private static Operation op(String key, List<Answer> answers, Row row, List<String> objects, List<Create> creates, List<Armed> armed) {
        return new Operation(key, "1c", answers, row, objects, creates, armed, false);
    }

    private static Answer answer(int status, String opStatus, String objectId, String problem, boolean retryAfter, int second) {
        return new Answer(status, opStatus, objectId, problem, retryAfter, T0.plusSeconds(second));
    }
}
