package dev.toolgate.lifecycle;

import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationId;
import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import static dev.toolgate.journal.EventKind.APPROVAL_LAPSED;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.approval.Approval;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Renews a lease its holder still owns, each in one short transaction under the row lock. Renewing
 * keeps the lease epoch: only a holder whose epoch is still the row's can renew, so a holder whose
 * lease lapsed and was taken over learns it here, before it sends anything.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class LeaseRenewals {

    /**
     * A lease more than half of which is left is provably still its holder's — nobody may take it
     * before it ends — so using it needs no renewal in the journal yet.
     */
    public static boolean provablyHeld(Instant leaseUntil, Duration lease, Instant now) {
        return leaseUntil != null && Duration.between(now, leaseUntil).compareTo(lease.dividedBy(2)) > 0;
    }

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

    /**
     * Before a request that can create the effect. With {@code checkApproval}, the approval is read
     * under the same lock a revoke takes: a revoke committed before this stops the attempt.
     */
    public Renewal renewAttempt(OperationView attempt, boolean checkApproval, String actor) {
        Instant now = Instant.now();
        Operation row = lock(attempt);
        OperationView current = row.view();
        if (current.status() != OperationStatus.STARTED || current.attemptCount() != attempt.attemptCount()
                || current.leaseEpoch() != attempt.leaseEpoch()) {
            return new Renewal.Lost("the operation is " + current.status().dbName() + " under lease " + current.leaseEpoch());
        }
        if (checkApproval) {
            ApprovalStanding standing = Approval.standing(em, current, now);
            if (!standing.permitsAttempt()) {
                // every earlier attempt provably did not execute, and this one has sent nothing
                row.lapse(standing.lapseCode(), now);
                EventLog.append(em, row.view(), actor, APPROVAL_LAPSED, now, attempt.attemptCount(),
                        OperationStatus.FAILED_FINAL, "the approval was " + standing.dbName() + " before attempt "
                                + attempt.attemptCount() + " sent anything; nothing sent");
                return new Renewal.ApprovalLapsed(row.view());
            }
        }
        row.renewLease(now, settings.lease());
        return new Renewal.Held(row.view());
    }

    /** Before the reconcile job works an item it claimed: empty when another look-up or attempt holds it now. */
    public Optional<OperationView> renewLookUp(OperationView claimed) {
        Operation row = lock(claimed);
        if (LookupDecisions.fence(claimed, row.view()) != null) {
            return Optional.empty();
        }
        row.renewLease(Instant.now(), settings.lease());
        return Optional.of(row.view());
    }

    private Operation lock(OperationView operation) {
        return em.find(Operation.class, new OperationId(operation.tenant(), operation.key()), LockModeType.PESSIMISTIC_WRITE);
    }
}
