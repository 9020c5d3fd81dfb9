package dev.toolgate.lifecycle;

import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static dev.toolgate.operation.EventKind.APPROVAL_LAPSED;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.approval.Approval;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Renews a lease its holder still owns, by {@link OperationWrites#RENEW}. The epoch is kept, so a holder whose lease lapsed
 * and was taken over learns it here, before it sends anything.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class LeaseRenewals {

    /** More than half left: nobody may take it before it ends, so no renewal is needed yet. */
    public static boolean provablyHeld(Instant leaseUntil, Duration lease, Instant now) {
        return leaseUntil != null && Duration.between(now, leaseUntil).compareTo(lease.dividedBy(2)) > 0;
    }

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

    /** With {@code checkApproval} the approval is read under the lock a revoke takes: a revoke committed before stops the attempt. */
    public Renewal renewAttempt(OperationView attempt, boolean checkApproval, String actor) {
        Instant now = Instant.now();
        Connection c = JournalConnections.of(em);
        if (!checkApproval) {
            return Leases.renew(c, attempt, OperationStatus.STARTED, now, settings.lease()).<Renewal>map(Renewal.Held::new)
                    .orElseGet(() -> lost(OperationRows.current(c, attempt)));
        }
        OperationView current = OperationRows.locked(c, attempt);
        if (current.status() != OperationStatus.STARTED || current.attemptCount() != attempt.attemptCount()
                || current.leaseEpoch() != attempt.leaseEpoch()) {
            return lost(current);
        }
        ApprovalStanding standing = Approval.standing(em, current, now);
        if (!standing.permitsAttempt()) {
            // every earlier attempt provably did not execute, and this one has sent nothing
            return new Renewal.ApprovalLapsed(ApprovalWrites.underLock(ApprovalWrites.lapse(c, current, standing.lapseCode(),
                    APPROVAL_LAPSED, actor, now, "the approval was " + standing.dbName() + " before attempt "
                            + attempt.attemptCount() + " sent anything; nothing sent"), current));
        }
        return new Renewal.Held(ApprovalWrites.underLock(Leases.renew(c, current, OperationStatus.STARTED, now, settings.lease()), current));
    }

    /** Empty when another look-up or attempt holds the item now (the statement's own fence). */
    public Optional<OperationView> renewLookUp(OperationView claimed) {
        return Leases.renew(JournalConnections.of(em), claimed, OperationStatus.UNKNOWN, Instant.now(), settings.lease());
    }

    private static Renewal lost(OperationView current) {
        return new Renewal.Lost("the operation is " + current.status().dbName() + " under lease " + current.leaseEpoch());
    }
}
