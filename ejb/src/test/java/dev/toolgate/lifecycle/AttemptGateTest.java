package dev.toolgate.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.EffectGate;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The effect gate of one attempt, with the journal's renewal played by a stand-in (its SQL has its
 * own PostgreSQL test): when it goes to the journal, and what it does with each answer.
 */
class AttemptGateTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);
    private final List<String> renewals = new ArrayList<>();

    @Test
    void aLeaseMoreThanHalfLeftIsProvablyOursAndSendsWithoutTheJournal() {
        AttemptGate gate = gate(row(NOW.plusSeconds(20), false), new Renewal.Lost("unused"));
        assertEquals(new EffectGate.Send(), gate.beforeEffect());
        assertEquals(List.of(), renewals);
        assertTrue(gate.effectMayHaveLeft());
    }

    @Test
    void pastHalfTheLeaseItIsRenewedInTheJournalFirst() {
        OperationView renewed = row(NOW.plusSeconds(30), false);
        AttemptGate gate = gate(row(NOW.plusSeconds(10), false), new Renewal.Held(renewed));
        assertEquals(new EffectGate.Send(), gate.beforeEffect());
        assertEquals(List.of("renew, approval false"), renewals);
    }

    @Test
    void anAttemptThatLostItsLeaseSendsNothing() {
        AttemptGate gate = gate(row(NOW.minusSeconds(1), false), new Renewal.Lost("the operation is unknown under lease 3"));
        assertEquals(new EffectGate.Stop("lease_lost"), gate.beforeEffect());
        assertFalse(gate.effectMayHaveLeft());
        assertNull(gate.lapsed());
    }

    @Test
    void anOperationThatNeedsApprovalReadsItUnderTheLockOncePerAttempt() {
        OperationView renewed = row(NOW.plusSeconds(30), true);
        AttemptGate gate = gate(row(NOW.plusSeconds(29), true), new Renewal.Held(renewed));
        assertEquals(new EffectGate.Send(), gate.beforeEffect());
        assertEquals(new EffectGate.Send(), gate.beforeEffect(), "the posting after the create: the lease is full again");
        assertEquals(List.of("renew, approval true"), renewals);
    }

    @Test
    void anApprovalRevokedSinceCaptureStopsTheAttemptWithNothingSent() {
        OperationView lapsed = new OperationView("acme", "k", "agent-a", "payment.refund", "yookassa", OperationStatus.FAILED_FINAL,
                "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT, List.of(), null, null, "approval_revoked", 1, null, 1, null, 0, null, null,
                NOW, NOW, NOW, null, null, true, "approval-1");
        AttemptGate gate = gate(row(NOW.plusSeconds(29), true), new Renewal.ApprovalLapsed(lapsed));
        assertEquals(new EffectGate.Stop("approval_revoked"), gate.beforeEffect());
        assertEquals(lapsed, gate.lapsed());
        assertFalse(gate.effectMayHaveLeft());
    }

    private AttemptGate gate(OperationView attempt, Renewal answer) {
        LeaseRenewals journal = new LeaseRenewals() {
            @Override
            public Renewal renewAttempt(OperationView held, boolean checkApproval, String actor) {
                renewals.add("renew, approval " + checkApproval);
                return answer;
            }
        };
        return new AttemptGate(attempt, journal, LEASE, "agent-a", Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static OperationView row(Instant leaseUntil, boolean approvalRequired) {
        return new OperationView("acme", "k", "agent-a", "payment.refund", "yookassa", OperationStatus.STARTED, "a".repeat(64),
                JsonValue.EMPTY_JSON_OBJECT, List.of(), null, null, null, 1, leaseUntil, 1, null, 0, null, null, NOW, NOW, null, null, null,
                approvalRequired, approvalRequired ? "approval-1" : null);
    }
}
