package dev.toolgate.journal;

import static dev.toolgate.journal.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.journal.EventKind.LEASE_EXPIRED;
import static dev.toolgate.journal.EventKind.RECONCILE_STARTED;

import jakarta.persistence.EntityManager;

import java.time.Instant;

/**
 * Taking the lease on a locked row, with its event: shared by the agent's capture and the
 * reconcile job's claim, so both move an operation the same way.
 */
final class Leases {

    private Leases() {
    }

    static void startNextAttempt(EntityManager em, Operation row, String actor, Instant now, JournalSettings settings) {
        row.startNextAttempt(now, settings.lease());
        OperationView leased = row.view();
        EventLog.append(em, leased, actor, ATTEMPT_STARTED, now, leased.attemptCount(), OperationStatus.STARTED, "attempt leased");
    }

    static void holdForReconcile(EntityManager em, Operation row, String actor, Instant now, JournalSettings settings) {
        OperationView before = row.view();
        if (before.status() == OperationStatus.STARTED) {
            EventLog.append(em, before, actor, LEASE_EXPIRED, now, before.attemptCount(), OperationStatus.UNKNOWN,
                    "the owner of attempt " + before.attemptCount() + " did not record an outcome in time");
        }
        row.holdForReconcile(now, settings.lease(), settings.settleWindow(), settings.longestRequest(before.target()));
        EventLog.append(em, before, actor, RECONCILE_STARTED, now, before.attemptCount(), OperationStatus.UNKNOWN,
                "look-up by key leased");
    }
}
