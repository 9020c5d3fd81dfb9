package dev.toolgate.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.canonical.FieldSpec;
import dev.toolgate.canonical.FieldType;
import dev.toolgate.canonical.OperationSpec;
import dev.toolgate.operation.OperationStatus;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One test per row of the process table ({@link ProcessProgress}): steps in order, compensation latest first. */
class ProcessProgressTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration POLL = Duration.ofSeconds(30);
    private static final String KEY = "p1";

    /** invoice (cannot be undone) → payment (refunded) → deal (nothing to undo) → charge (refunded). */
    private static final ProcessType TYPE = new ProcessType("test.flow", "", new OperationSpec("test.flow", "process",
            List.of(new FieldSpec("order_id", FieldType.TEXT, true, 64, false)), false), List.of(
            step("invoice", "invoice.create", "1c", new Compensation.Irreversible("a sent invoice stays sent")),
            step("payment", "payment.create", "yookassa", undo()),
            step("deal", "crm.deal.create", "bitrix24", new Compensation.NothingToUndo("the refund answers for it")),
            step("charge", "payment.create", "yookassa", undo())));

    private final Map<String, StepState> states = new HashMap<>();

    @Test
    void startsWithTheFirstStep() {
        ProcessProgress.Progress p = decide();
        assertEquals(ProcessStatus.RUNNING, p.status());
        assertEquals("p1/invoice", submitted(p).key());
    }

    @Test
    void startsTheNextStepOnlyOnceTheOneBeforeSucceeded() {
        done("p1/invoice");
        assertEquals("p1/payment", submitted(decide()).key());
    }

    @Test
    void waitsWhileAStepIsBeingSent() {
        states.put("p1/invoice", new StepState(OperationStatus.STARTED, ApprovalStanding.NOT_REQUIRED, null, false, null, NOW.plusSeconds(10)));
        ProcessProgress.Progress p = decide();
        assertEquals(ProcessStatus.RUNNING, p.status());
        assertEquals(NOW.plus(POLL), waited(p).checkAt());
    }

    @Test
    void handsAStepLeftByItsSenderToTheGatewayWhichLooksItUp() {
        states.put("p1/invoice", new StepState(OperationStatus.STARTED, ApprovalStanding.NOT_REQUIRED, null, false, null, NOW.minusSeconds(1)));
        assertEquals("p1/invoice", submitted(decide()).key(), "its lease lapsed: the gateway's capture looks it up first");
    }

    @Test
    void neverMovesPastAStepWhoseOutcomeIsUnknown() {
        done("p1/invoice");
        states.put("p1/payment", new StepState(OperationStatus.UNKNOWN, ApprovalStanding.NOT_REQUIRED, NOW.plusSeconds(5), false, null, NOW.minusSeconds(1)));
        ProcessProgress.Progress p = decide();
        assertEquals("p1/payment", waited(p).stage().key(), "the look-up settles it first");
        assertEquals(ProcessStatus.RUNNING, p.status());
        assertTrue(p.detail().contains("looked up"), p.detail());
    }

    @Test
    void asksTheGatewayToLookUpAnUnknownStepWhoseLookUpIsDue() {
        states.put("p1/invoice", new StepState(OperationStatus.UNKNOWN, ApprovalStanding.NOT_REQUIRED, NOW.minusSeconds(1), false, null, NOW.minusSeconds(1)));
        ProcessProgress.Progress p = decide();
        assertEquals("p1/invoice", submitted(p).key(), "a re-send of an unknown step is a look-up, never a blind repeat");
        states.put("p1/invoice", new StepState(OperationStatus.UNKNOWN, ApprovalStanding.NOT_REQUIRED, NOW.minusSeconds(1), false, null, NOW.plusSeconds(5)));
        assertInstanceOf(ProcessProgress.Wait.class, decide().next(), "unless a look-up holds its lease now");
    }

    @Test
    void needsAttentionWhileAStepIsEscalatedAndKeepsLooking() {
        states.put("p1/invoice", new StepState(OperationStatus.UNKNOWN, ApprovalStanding.NOT_REQUIRED, null, true, null));
        ProcessProgress.Progress p = decide();
        assertEquals(ProcessStatus.NEEDS_ATTENTION, p.status());
        assertInstanceOf(ProcessProgress.Wait.class, p.next(), "a person's resolution lets it go on");
    }

    @Test
    void awaitsApprovalUntilAPersonApproves() {
        done("p1/invoice");
        states.put("p1/payment", awaitingApproval(ApprovalStanding.AWAITING));
        ProcessProgress.Progress waiting = decide();
        assertEquals(ProcessStatus.AWAITING_APPROVAL, waiting.status());
        assertEquals(NOW.plus(POLL), waited(waiting).checkAt());

        states.put("p1/payment", awaitingApproval(ApprovalStanding.ACTIVE));
        ProcessProgress.Progress approved = decide();
        assertEquals(ProcessStatus.RUNNING, approved.status());
        assertEquals("p1/payment", submitted(approved).key());
    }

    @Test
    void aStepWhoseApprovalExpiredWaitsForANewApprovalInsteadOfBeingSent() {
        done("p1/invoice");
        states.put("p1/payment", awaitingApproval(ApprovalStanding.EXPIRED));
        ProcessProgress.Progress waiting = decide();
        assertEquals(ProcessStatus.AWAITING_APPROVAL, waiting.status(), "sent, it would fail approval_expired and compensate");
        assertEquals(NOW.plus(POLL), waited(waiting).checkAt(), "looked at again: an approver may grant it anew");
        assertTrue(waiting.detail().contains("approval expired before it was sent"), waiting.detail());
    }

    @Test
    void aStepWhoseApprovalWasRevokedWaitsForANewDecisionInsteadOfBeingSent() {
        done("p1/invoice");
        states.put("p1/payment", awaitingApproval(ApprovalStanding.REVOKED));
        ProcessProgress.Progress waiting = decide();
        assertEquals(ProcessStatus.AWAITING_APPROVAL, waiting.status());
        assertInstanceOf(ProcessProgress.Wait.class, waiting.next());
        assertTrue(waiting.detail().contains("approval was revoked"), waiting.detail());
    }

    @Test
    void aCompensationWhoseApprovalLapsedWaitsAndTheProcessStaysCompensating() {
        done("p1/invoice");
        done("p1/payment");
        failed("p1/deal");
        for (ApprovalStanding lapsed : List.of(ApprovalStanding.AWAITING, ApprovalStanding.EXPIRED, ApprovalStanding.REVOKED)) {
            states.put("p1/payment/compensation", awaitingApproval(lapsed));
            ProcessProgress.Progress waiting = decide();
            assertEquals(ProcessStatus.COMPENSATING, waiting.status(), lapsed.name());
            assertEquals("p1/payment/compensation", waited(waiting).stage().key(), lapsed.name());
        }
        states.put("p1/payment/compensation", awaitingApproval(ApprovalStanding.ACTIVE));
        assertEquals("p1/payment/compensation", submitted(decide()).key(), "the refund, approved anew, is sent");
    }

    @Test
    void retriesARefusedForNowStepOnlyAfterItsBackOff() {
        states.put("p1/invoice", new StepState(OperationStatus.FAILED_RETRYABLE, ApprovalStanding.NOT_REQUIRED, NOW.plusSeconds(5), false, "target_rate_limited"));
        assertEquals(NOW.plusSeconds(5), waited(decide()).checkAt());
        states.put("p1/invoice", new StepState(OperationStatus.FAILED_RETRYABLE, ApprovalStanding.NOT_REQUIRED, NOW.minusSeconds(1), false, "target_rate_limited"));
        assertEquals("p1/invoice", submitted(decide()).key());
    }

    @Test
    void completesWhenEveryStepSucceeded() {
        List.of("p1/invoice", "p1/payment", "p1/deal", "p1/charge").forEach(this::done);
        ProcessProgress.Progress p = decide();
        assertEquals(ProcessStatus.COMPLETED, p.status());
        assertInstanceOf(ProcessProgress.Settled.class, p.next());
    }

    @Test
    void failsWithNothingToCompensateWhenTheFirstStepFails() {
        failed("p1/invoice");
        ProcessProgress.Progress p = decide();
        assertEquals(ProcessStatus.FAILED, p.status());
        assertInstanceOf(ProcessProgress.Settled.class, p.next());
    }

    @Test
    void compensatesTheLatestUndoableStepFirst() {
        List.of("p1/invoice", "p1/payment", "p1/deal").forEach(this::done);
        failed("p1/charge");
        ProcessProgress.Progress p = decide();
        assertEquals(ProcessStatus.COMPENSATING, p.status());
        Stage stage = submitted(p);
        assertEquals("p1/payment/compensation", stage.key(), "deal needs nothing undone; the payment is refunded");
        assertEquals("payment.refund", stage.operation());
        assertTrue(stage.compensation());
    }

    @Test
    void waitsForACompensationAsForAStep() {
        List.of("p1/invoice", "p1/payment", "p1/deal").forEach(this::done);
        failed("p1/charge");
        states.put("p1/payment/compensation", awaitingApproval(ApprovalStanding.AWAITING));
        ProcessProgress.Progress p = decide();
        assertEquals(ProcessStatus.COMPENSATING, p.status(), "a refund waits for its own approval");
        assertEquals("p1/payment/compensation", waited(p).stage().key());
    }

    @Test
    void needsAttentionWhenAStepCannotBeCompensatedAndSaysWhich() {
        List.of("p1/invoice", "p1/payment", "p1/deal").forEach(this::done);
        failed("p1/charge");
        done("p1/payment/compensation");
        ProcessProgress.Progress p = decide();
        assertEquals(ProcessStatus.NEEDS_ATTENTION, p.status());
        assertInstanceOf(ProcessProgress.Settled.class, p.next());
        assertTrue(p.detail().contains("compensated: 'payment'") && p.detail().contains("cannot be compensated: 'invoice'"), p.detail());
        assertTrue(p.detail().contains("not undone, as declared: 'deal' (the refund answers for it)"), p.detail());
    }

    @Test
    void compensatedWhenEveryEarlierEffectWasUndone() {
        ProcessType withoutInvoice = new ProcessType("test.short", "", TYPE.input(), TYPE.steps().subList(1, 4));
        List.of("p1/payment", "p1/deal").forEach(this::done);
        failed("p1/charge");
        done("p1/payment/compensation");
        ProcessProgress.Progress p = ProcessProgress.decide(withoutInvoice, KEY, states::get, NOW, POLL);
        assertEquals(ProcessStatus.COMPENSATED, p.status());
        assertInstanceOf(ProcessProgress.Settled.class, p.next());
    }

    @Test
    void stopsForAPersonWhenACompensationFails() {
        List.of("p1/invoice", "p1/payment", "p1/deal").forEach(this::done);
        failed("p1/charge");
        failed("p1/payment/compensation");
        ProcessProgress.Progress p = decide();
        assertEquals(ProcessStatus.NEEDS_ATTENTION, p.status());
        assertInstanceOf(ProcessProgress.Settled.class, p.next());
        assertTrue(p.detail().contains("the compensation of 'payment' failed"), p.detail());
    }

    @Test
    void neverStartsAStepAfterTheOneThatFailed() {
        done("p1/invoice");
        failed("p1/payment");
        ProcessProgress.Progress p = decide();
        assertEquals(ProcessStatus.NEEDS_ATTENTION, p.status(), "only the irreversible invoice came before");
        assertTrue(p.detail().contains("step 'payment' failed (target_rejected)"), p.detail());
    }

    private ProcessProgress.Progress decide() {
        return ProcessProgress.decide(TYPE, KEY, states::get, NOW, POLL);
    }

    private void done(String key) {
        states.put(key, state(OperationStatus.SUCCEEDED));
    }

    private void failed(String key) {
        states.put(key, new StepState(OperationStatus.FAILED_FINAL, ApprovalStanding.NOT_REQUIRED, null, false, "target_rejected"));
    }

    private static StepState awaitingApproval(ApprovalStanding approval) {
        return new StepState(OperationStatus.PENDING_APPROVAL, approval, null, false, null);
    }

    private static StepState state(OperationStatus status) {
        return new StepState(status, ApprovalStanding.NOT_REQUIRED, null, false, null);
    }

    private static Stage submitted(ProcessProgress.Progress progress) {
        return assertInstanceOf(ProcessProgress.Submit.class, progress.next()).stage();
    }

    private static ProcessProgress.Wait waited(ProcessProgress.Progress progress) {
        return assertInstanceOf(ProcessProgress.Wait.class, progress.next());
    }

    private static StepDeclaration step(String name, String operation, String target, Compensation compensation) {
        return new StepDeclaration(name, operation, target, StepTemplate.of(JsonValue.EMPTY_JSON_OBJECT), compensation);
    }

    private static Compensation undo() {
        return new Compensation.Undo("payment.refund", "yookassa", StepTemplate.of(JsonValue.EMPTY_JSON_OBJECT));
    }
}
