package dev.toolgate.lifecycle;

import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import static dev.toolgate.journal.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.journal.EventKind.LEASE_EXPIRED;
import static dev.toolgate.journal.EventKind.RECONCILE_STARTED;

import jakarta.persistence.EntityManager;

import java.time.Instant;

/**
 * Taking the lease on a locked row, with its event, for the agent's capture. The reconcile job's claim
 * leases a whole batch in one statement ({@link DueOperations#LEASE}) that moves each row as
 * {@link Operation#holdForReconcile} does and journals the same events with the same details (these
 * constants); FencedWritesIT checks the statement against them.
 */
final class Leases {

    /** The detail of the event a look-up's lease leaves. */
    static final String LOOKUP_LEASED = "look-up by key leased";
    /** The detail of the event an attempt whose lease lapsed without an outcome leaves; %d: its attempt. */
    static final String LAPSED = "the owner of attempt %d did not record an outcome in time";

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
                    String.format(LAPSED, before.attemptCount()));
        }
        Instant settleAfter = before.status() == OperationStatus.STARTED // an expired attempt may still be running at the target
                ? SettleWindows.afterLapsedLease(now, before.leaseUntil(), settings.longestRequest(before.target()), settings.settleWindow())
                : null;
        row.holdForReconcile(now, settings.lease(), settleAfter);
        EventLog.append(em, before, actor, RECONCILE_STARTED, now, before.attemptCount(), OperationStatus.UNKNOWN,
                LOOKUP_LEASED);
    }
}
