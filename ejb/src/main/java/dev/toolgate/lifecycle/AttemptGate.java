package dev.toolgate.lifecycle;

import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.EffectGate;

import java.time.Clock;
import java.time.Duration;

/**
 * The effect gate of one attempt: a provably held lease ({@link LeaseRenewals#provablyHeld}) lets the first request go
 * without a round trip; past half, the lease is renewed, which is where a holder that lost it finds out. An approval is
 * read again under the row lock before the attempt's first request, so a revoke committed since capture stops it.
 */
final class AttemptGate implements EffectGate {

    private final LeaseRenewals renewals;
    private final Duration lease;
    private final String actor;
    private final Clock clock;
    private OperationView attempt;
    private boolean approvalChecked;
    private boolean permitted;
    private OperationView lapsed;

    AttemptGate(OperationView attempt, LeaseRenewals renewals, Duration lease, String actor) {
        this(attempt, renewals, lease, actor, Clock.systemUTC());
    }

    AttemptGate(OperationView attempt, LeaseRenewals renewals, Duration lease, String actor, Clock clock) {
        this.clock = clock;
        this.attempt = attempt;
        this.renewals = renewals;
        this.lease = lease;
        this.actor = actor;
    }

    @Override
    public Passage beforeEffect() {
        boolean checkApproval = attempt.approvalRequired() && !approvalChecked;
        if (!checkApproval && LeaseRenewals.provablyHeld(attempt.leaseUntil(), lease, clock.instant())) {
            permitted = true;
            return new Send();
        }
        Renewal renewal = renewals.renewAttempt(attempt, checkApproval, actor);
        if (renewal instanceof Renewal.Held held) {
            attempt = held.operation();
            approvalChecked = true;
            permitted = true;
            return new Send();
        }
        if (renewal instanceof Renewal.ApprovalLapsed stopped) {
            lapsed = stopped.operation();
            return new Stop(stopped.operation().errorCode());
        }
        if (renewal instanceof Renewal.Lost) {
            return new Stop("lease_lost");
        }
        throw new IllegalStateException("a renewal this gate does not know: " + renewal);
    }

    @Override
    public boolean effectMayHaveLeft() {
        return permitted;
    }

    /** The operation, failed for good, when the gate found the approval lapsed; null while it has not. */
    OperationView lapsed() {
        return lapsed;
    }
}
