package dev.toolgate.lifecycle.decisions;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static dev.toolgate.lifecycle.decisions.AttemptOutcomes.detail;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicy;

import java.time.Instant;

/**
 * What a look-up by our key does to an unknown operation: the third lifecycle table. A found or failed object decides
 * on the fence alone, so {@code lifecycle.LookupRecorder} locks the row only when that write was kept out.
 *
 * <pre>
 * row (locked)                          look-up             →  decision
 * not unknown / other attempt / other
 *   lease epoch / escalated             any                 →  Refused (a person or a newer lease owns it)
 * unknown                               Found               →  Settle succeeded (the object)
 * unknown                               Failed              →  Settle failed_final (the target's code)
 * unknown, the target named an object   Absent              →  Postpone (a pending object is never sent again)
 * unknown, inside the settle window     Absent              →  AwaitSettle
 * unknown, budget spent                 Absent              →  Settle failed_final retries_exhausted
 * unknown, approval revoked/expired     Absent              →  Settle failed_final approval_revoked/expired
 * unknown, withheld fields, no caller   Absent              →  Settle failed_retryable awaiting_caller
 * unknown                               Absent              →  Retry (the next attempt, sent now)
 * unknown                               Ambiguous           →  Postpone, escalated at once (a duplicate)
 * unknown                               Pending/Unavailable →  Postpone, escalated at the look-up limit ({@link EscalationRule})
 * unknown, not due yet (a notification   Pending/Unavailable,
 *   started the look-up early)            a named object absent →  Release (nothing learned: count and schedule unchanged)
 * </pre>
 * So a notification that comes early, twice or forged moves no operation toward escalation.
 */
public final class LookupDecisions {

    private LookupDecisions() {
    }

    /** {@code current}: the row under its lock, or the leased row for a found or failed object; {@code standing}: Absent only. */
    public static LookupDecision decide(OperationView leased, OperationView current, Lookup lookup, ApprovalStanding standing,
                                        RetryPolicy policy, int maxLookUps, boolean canResend, Instant now) {
        String fence = fence(leased, current);
        if (fence != null) {
            return new LookupDecision.Refused(fence);
        }
        if (lookup instanceof Lookup.Found found) {
            return new LookupDecision.Settle(new Transition(OperationStatus.SUCCEEDED, found.objectId(), found.result(), null, null),
                    "found target object " + found.objectId());
        }
        if (lookup instanceof Lookup.Failed failed) {
            return new LookupDecision.Settle(new Transition(OperationStatus.FAILED_FINAL, null,
                    detail(failed.detail() + " (target object " + failed.objectId() + ")"), failed.errorCode(), null),
                    "target object " + failed.objectId() + " failed: " + failed.errorCode());
        }
        int lookUpsMade = current.reconcileCount() + 1;
        boolean early = current.nextCheckAt() != null && now.isBefore(current.nextCheckAt());
        if (early && (lookup instanceof Lookup.Pending || lookup instanceof Lookup.Unavailable
                || lookup instanceof Lookup.Absent && current.targetObjectId() != null)) {
            return new LookupDecision.Release(lookup instanceof Lookup.Unavailable u ? u.errorCode() : lookup instanceof Lookup.Pending
                    ? "target_pending" : "named_object_not_found");
        }
        if (lookup instanceof Lookup.Absent && current.targetObjectId() != null) {
            // the target named its object (it answered "pending"): not finding it proves nothing, never resend
            return new LookupDecision.Postpone("named_object_not_found", EscalationRule.escalates(false, lookUpsMade, maxLookUps));
        }
        if (lookup instanceof Lookup.Absent) {
            return absent(current, standing, policy, canResend, now);
        }
        if (lookup instanceof Lookup.Ambiguous) {
            return new LookupDecision.Postpone("duplicate_effect", EscalationRule.escalates(true, lookUpsMade, maxLookUps));
        }
        if (lookup instanceof Lookup.Unavailable unavailable) {
            return new LookupDecision.Postpone(unavailable.errorCode(), EscalationRule.escalates(false, lookUpsMade, maxLookUps));
        }
        if (lookup instanceof Lookup.Pending) {
            return new LookupDecision.Postpone("target_pending", EscalationRule.escalates(false, lookUpsMade, maxLookUps));
        }
        throw new IllegalArgumentException("a look-up result this table does not know: " + lookup);
    }

    private static LookupDecision absent(OperationView current, ApprovalStanding standing, RetryPolicy policy, boolean canResend,
                                         Instant now) {
        int attempt = current.attemptCount();
        if (current.settleAfter() != null && now.isBefore(current.settleAfter())) {
            return new LookupDecision.AwaitSettle();
        }
        if (policy.exhausted(attempt)) {
            return new LookupDecision.Settle(AttemptOutcomes.exhausted(attempt, "no effect found"), "absent; the attempt budget is spent");
        }
        if (!standing.permitsAttempt()) {
            return new LookupDecision.Settle(new Transition(OperationStatus.FAILED_FINAL, null,
                    detail("no effect found; the approval was " + standing.dbName() + ", so nothing was sent again"),
                    standing.lapseCode(), null), "absent; approval " + standing.dbName() + ": failed for good, nothing sent");
        }
        if (!canResend) { // the resend needs fields the journal never kept: the caller's next call sends it
            return new LookupDecision.Settle(new Transition(OperationStatus.FAILED_RETRYABLE, null, null, "awaiting_caller", now),
                    "absent; the next attempt needs withheld fields " + current.withheldFields() + " from the caller");
        }
        return new LookupDecision.Retry();
    }

    public static String fence(OperationView leased, OperationView current) {
        if (current.status() != OperationStatus.UNKNOWN) {
            return "the operation is " + current.status().dbName() + " now";
        }
        if (current.escalatedAt() != null) {
            return "the operation is escalated: only a person settles it";
        }
        if (current.attemptCount() != leased.attemptCount() || current.leaseEpoch() != leased.leaseEpoch()) {
            return "another look-up or attempt holds the operation now (lease " + current.leaseEpoch() + ")";
        }
        return null;
    }
}
