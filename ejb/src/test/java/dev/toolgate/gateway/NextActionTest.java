package dev.toolgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.approval.ApprovalView;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

/** What a replacement agent is told to do, state by state (docs/lifecycle.md). */
class NextActionTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final String HASH = "a".repeat(64);

    @Test
    void asksAnApproverWhileNothingIsApproved() {
        assertEquals("approve", next(OperationStatus.PENDING_APPROVAL, null, null, null).action());
        assertEquals("approver", next(OperationStatus.PENDING_APPROVAL, null, null, null).who());
    }

    @Test
    void resumesAnApprovedOperationAndStopsAtARevokedOne() {
        assertEquals("resume", next(OperationStatus.PENDING_APPROVAL, null, null, approval(null, NOW.plusSeconds(60))).action());
        assertEquals("none", next(OperationStatus.PENDING_APPROVAL, null, null, approval(NOW, NOW.plusSeconds(60))).action());
        assertEquals("none", next(OperationStatus.PENDING_APPROVAL, null, null, approval(null, NOW.minusSeconds(1))).action());
    }

    @Test
    void waitsForALiveAttemptAndResumesAnAbandonedOne() {
        assertEquals("wait", next(OperationStatus.STARTED, NOW.plusSeconds(10), null, null).action());
        assertEquals("resume", next(OperationStatus.STARTED, NOW.minusSeconds(1), null, null).action());
    }

    @Test
    void leavesAnEscalatedOperationToAnOperator() {
        NextAction next = next(OperationStatus.UNKNOWN, null, NOW.minusSeconds(5), null);
        assertEquals("resolve", next.action());
        assertEquals("operator", next.who());
        assertEquals("resume", next(OperationStatus.UNKNOWN, null, null, null).action());
    }

    @Test
    void hasNothingToDoForAFinishedOperation() {
        assertEquals("none", next(OperationStatus.SUCCEEDED, null, null, null).action());
        assertEquals("none", next(OperationStatus.FAILED_FINAL, null, null, null).action());
    }

    private static NextAction next(OperationStatus status, Instant leaseUntil, Instant escalatedAt, ApprovalView approval) {
        OperationView op = new OperationView("acme", "k", "agent-a", "payment.refund", "yookassa", status, HASH, JsonValue.EMPTY_JSON_OBJECT,
                List.of(), null, null, null, 1, leaseUntil, 1, null, 0, null, escalatedAt, NOW, NOW, null, null, null, true,
                approval == null ? null : approval.id());
        return NextAction.of(op, approval, NOW);
    }

    private static ApprovalView approval(Instant revokedAt, Instant expiresAt) {
        return new ApprovalView("approval-1", "acme", "k", HASH, "approver", NOW.minusSeconds(100), expiresAt, null,
                revokedAt == null ? null : "approver", revokedAt, null, ApprovalStanding.ACTIVE);
    }
}
