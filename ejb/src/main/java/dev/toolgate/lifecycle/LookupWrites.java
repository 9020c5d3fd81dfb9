package dev.toolgate.lifecycle;

import static dev.toolgate.operation.EventKind.ATTEMPT_STARTED;
import static dev.toolgate.operation.EventKind.ESCALATED;
import static dev.toolgate.operation.EventKind.OUTCOME_REFUSED;
import static dev.toolgate.operation.EventKind.RECONCILED;

import dev.toolgate.approval.Approval;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.lifecycle.decisions.LookupDecision;
import dev.toolgate.lifecycle.decisions.LookupDecisions;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.RetryPolicy;
import jakarta.persistence.EntityManager;

import java.sql.Connection;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a look-up's decision writes, journals and counts, within the transaction of the recorder that holds it: an
 * agent's look-up or a reconcile chunk's ({@link LookupRecorder}) — one way for both.
 */
final class LookupWrites {

    private final EntityManager em;
    private final JournalSettings settings;
    private final GatewayMetrics metrics;

    LookupWrites(EntityManager em, JournalSettings settings, GatewayMetrics metrics) {
        this.em = em;
        this.settings = settings;
        this.metrics = metrics;
    }

    /** What the look-up decides on the locked row: the approval in force is read only for an absence, which may retry. */
    LookupDecision decisionOn(OperationView leased, OperationView current, Lookup lookup, RetryPolicy policy, boolean canResend,
                                      Instant now) {
        ApprovalStanding standing = lookup instanceof Lookup.Absent ? Approval.standing(em, current, now) : null;
        return LookupDecisions.decide(leased, current, lookup, standing, policy, settings.maxReconciles(), canResend, now);
    }

    Phase applied(Connection journal, OperationView leased, OperationView current, Lookup lookup, LookupDecision decision,
                          String actor, Instant now, Consumer<Runnable> count) {
        String detail = detailOf(decision, lookup);
        boolean retry = decision instanceof LookupDecision.Retry;
        Optional<OperationView> written = apply(journal, decision, leased, now, actor, detail, retry ? nextAttempt(leased) : null);
        return recorded(leased, current, lookup, decision, written, actor, now, count);
    }

    static String nextAttempt(OperationView leased) {
        return "look-up found no effect of attempt " + leased.attemptCount();
    }

    /** A decision's write, done or kept out, journaled, logged and counted; the row as it now stands. */
    Phase recorded(OperationView leased, OperationView current, Lookup lookup, LookupDecision decision,
                           Optional<OperationView> written, String actor, Instant now, Consumer<Runnable> count) {
        String detail = detailOf(decision, lookup);
        int attempt = leased.attemptCount();
        boolean retry = decision instanceof LookupDecision.Retry;
        // the row is locked: unwritten, it is still what was read
        OperationView after = written.orElse(current);
        if (written.isPresent()) {
            EventLog.logOnCommit(leased, actor, RECONCILED, attempt, OperationStatus.UNKNOWN, detail);
        } else if (!(decision instanceof LookupDecision.Refused)) { // a refused decision journaled its event (apply)
            // the row is locked and was checked: the fence cannot keep this write out, but if it did, say so
            EventLog.append(em, leased, actor, OUTCOME_REFUSED, now, attempt, OperationStatus.UNKNOWN, detail + "; not written: the fence kept it out");
        }
        if (retry && written.isPresent()) {
            EventLog.logOnCommit(leased, actor, ATTEMPT_STARTED, attempt + 1, OperationStatus.STARTED, nextAttempt(leased));
        }
        count.accept(() -> metrics.reconciled(leased.target(), written.isPresent() ? lookup.metricName() : "refused"));
        if (written.isPresent() && after.escalatedAt() != null) {
            escalated(after, lookup, actor, now);
            count.accept(() -> metrics.escalated(leased.target()));
        }
        return Phase.lookedUp(leased, after, retry && written.isPresent(), lookup);
    }

    Optional<OperationView> apply(Connection journal, LookupDecision decision, OperationView leased, Instant now, String actor,
                                          String detail, String nextAttempt) {
        if (decision instanceof LookupDecision.Settle settle) {
            return FencedWrites.lookedUp(journal, OperationWrites.SETTLE_LOOKUP_LOGGED,
                    FencedWrites.set(leased, settle.to(), now, settings.settleWindow()), leased, now, actor, detail, null);
        }
        if (decision instanceof LookupDecision.AwaitSettle) {
            return FencedWrites.lookedUp(journal, OperationWrites.AWAIT_SETTLE_LOGGED,
                    FencedWrites.awaitSettle(leased, now), leased, now, actor, detail, null);
        }
        if (decision instanceof LookupDecision.Retry) {
            return FencedWrites.lookedUp(journal, OperationWrites.RETRY_LOGGED,
                    FencedWrites.retry(leased, now, settings.lease()), leased, now, actor, detail, nextAttempt);
        }
        if (decision instanceof LookupDecision.Postpone postpone) {
            return FencedWrites.lookedUp(journal, OperationWrites.POSTPONE_LOGGED,
                    FencedWrites.postpone(leased, postpone, now, settings.maxReconcileBackoffSeconds()), leased, now, actor, detail, null);
        }
        if (decision instanceof LookupDecision.Release) { // the same parameters as the settle window's wait: the row's fence
            return FencedWrites.lookedUp(journal, OperationWrites.RELEASE_LOGGED,
                    FencedWrites.awaitSettle(leased, now), leased, now, actor, detail, null);
        }
        if (decision instanceof LookupDecision.Refused) {
            EventLog.append(em, leased, actor, OUTCOME_REFUSED, now, leased.attemptCount(), OperationStatus.UNKNOWN, detail);
            return Optional.empty();
        }
        throw new IllegalArgumentException("a look-up decision this recorder does not apply: " + decision);
    }

    static String detailOf(LookupDecision decision, Lookup lookup) {
        if (decision instanceof LookupDecision.Refused refused) {
            return describe(lookup) + "; not written: " + refused.why();
        }
        if (decision instanceof LookupDecision.Settle settle) {
            return settle.detail();
        }
        if (decision instanceof LookupDecision.AwaitSettle) {
            return "absent, but inside the settle window: not yet proof that nothing happened";
        }
        if (decision instanceof LookupDecision.Release) {
            return describe(lookup) + "; looked up before it was due: its schedule and look-up count stay as they were";
        }
        return describe(lookup);
    }

    private void escalated(OperationView operation, Lookup lookup, String actor, Instant now) {
        String why = lookup instanceof Lookup.Ambiguous
                ? "DUPLICATE EFFECT: " + describe(lookup)
                : operation.reconcileCount() + " look-ups could not settle the outcome";
        EventLog.append(em, operation, actor, ESCALATED, now, operation.attemptCount(), OperationStatus.UNKNOWN, why);
    }

    private static String describe(Lookup lookup) {
        if (lookup instanceof Lookup.Found f) {
            return "found target object " + f.objectId();
        }
        if (lookup instanceof Lookup.Absent) {
            return "absent";
        }
        if (lookup instanceof Lookup.Pending p) {
            return "pending: " + p.detail();
        }
        if (lookup instanceof Lookup.Failed f) {
            return "target object " + f.objectId() + " failed: " + f.errorCode();
        }
        if (lookup instanceof Lookup.Ambiguous a) {
            return a.describe();
        }
        if (lookup instanceof Lookup.Unavailable u) {
            return "unavailable: " + u.errorCode();
        }
        throw new IllegalArgumentException("a look-up this recorder cannot describe: " + lookup);
    }
}
