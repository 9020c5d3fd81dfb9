package dev.toolgate.gateway;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.operation.OperationView;

import java.time.Duration;
import java.time.Instant;

/**
 * The one mapping from an operation's state to what its caller is told, as a pure function: every path (a new
 * attempt, a look-up, a replay, a refusal to act now) ends here with the row as the journal left it.
 */
public final class AgentAnswers {

    /** What an agent is told to wait when no better figure is known, and the least it is ever told. */
    static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);
    /** An escalated operation waits for a person: no point asking again within minutes. */
    static final Duration ESCALATED_RETRY_AFTER = Duration.ofMinutes(5);

    private AgentAnswers() {
    }

    public static GatewayAnswer of(OperationView operation, boolean replayed, Instant now) {
        return of(operation, replayed, now, null);
    }

    /**
     * {@code noticeWait}: when the operation's target announces outcomes to this gateway, how soon an agent may look
     * again (its notification starts the look-up at once); null when it does not.
     */
    public static GatewayAnswer of(OperationView operation, boolean replayed, Instant now, Duration noticeWait) {
        return switch (operation.status()) {
            case SUCCEEDED -> new GatewayAnswer.Done(operation, replayed, GatewayAnswer.Ending.SUCCEEDED);
            case FAILED_FINAL -> new GatewayAnswer.Done(operation, replayed, endingOf(operation.errorCode()));
            case FAILED_RETRYABLE -> new GatewayAnswer.TryLater(operation, until(operation.nextCheckAt(), now));
            case UNKNOWN -> operation.escalatedAt() != null
                    ? new GatewayAnswer.OutcomeUnknown(operation, ESCALATED_RETRY_AFTER, true, false)
                    : unknown(operation, until(later(operation.nextCheckAt(), operation.leaseUntil()), now), noticeWait);
            case STARTED -> new GatewayAnswer.InProgress(operation, until(operation.leaseUntil(), now));
            case PENDING_APPROVAL -> new GatewayAnswer.AwaitingApproval(operation);
        };
    }

    /**
     * An operation at a target that announces outcomes is settled on its notification, so its agent is told the notice
     * wait whenever the look-up is due: sooner would only poll, later would hide a settlement already made.
     */
    private static GatewayAnswer.OutcomeUnknown unknown(OperationView operation, Duration untilLookUp, Duration noticeWait) {
        return noticeWait == null ? new GatewayAnswer.OutcomeUnknown(operation, untilLookUp, false, false)
                : new GatewayAnswer.OutcomeUnknown(operation, noticeWait.compareTo(DEFAULT_RETRY_AFTER) < 0 ? DEFAULT_RETRY_AFTER : noticeWait,
                false, true);
    }

    static GatewayAnswer.Ending endingOf(String errorCode) {
        if (ApprovalStanding.lapsed(errorCode)) {
            return GatewayAnswer.Ending.APPROVAL_LAPSED;
        }
        return "retries_exhausted".equals(errorCode) ? GatewayAnswer.Ending.RETRIES_EXHAUSTED : GatewayAnswer.Ending.REFUSED;
    }

    private static Instant later(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isAfter(b) ? a : b;
    }

    private static Duration until(Instant moment, Instant now) {
        Duration left = moment == null ? DEFAULT_RETRY_AFTER : Duration.between(now, moment);
        return left.compareTo(DEFAULT_RETRY_AFTER) < 0 ? DEFAULT_RETRY_AFTER : left;
    }
}
