package dev.toolgate.gateway.mcp;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.process.ProcessStatus;

import java.time.Duration;

/**
 * The tasks extension's statuses for the journal's states, as a pure table (docs/mcp.md#tasks). An outcome being
 * clarified is {@code working} (the extension has no "unknown"): the gateway settles it by itself. A settled operation
 * is {@code completed} whatever its ending: the extension keeps {@code failed} for JSON-RPC errors.
 */
final class TaskStatuses {

    static final String WORKING = "working";
    static final String INPUT_REQUIRED = "input_required";
    static final String COMPLETED = "completed";
    static final String CANCELLED = "cancelled";
    /** Polled no faster than this even when the journal says "now": the lease and look-up intervals are seconds long. */
    static final Duration MIN_POLL = Duration.ofSeconds(1);
    /** People decide in minutes; a look every 5 s shows the decision promptly and costs one indexed read. */
    static final Duration APPROVAL_POLL = Duration.ofSeconds(5);

    private TaskStatuses() {
    }

    /** A task's status, what it means for the agent, and when to look again (null once settled). */
    record State(String status, String message, Duration poll) {
    }

    /** Whether a call's answer is one a task is made of: the operation is recorded and will move on without this call. */
    static boolean unsettled(GatewayAnswer answer) {
        return answer instanceof GatewayAnswer.OutcomeUnknown || answer instanceof GatewayAnswer.InProgress
                || answer instanceof GatewayAnswer.AwaitingApproval;
    }

    static State of(GatewayAnswer answer) {
        if (answer instanceof GatewayAnswer.OutcomeUnknown unknown) {
            return new State(WORKING, unknown.escalated()
                    ? "escalated: reconciliation could not settle the outcome and a person will; nothing is sent again meanwhile"
                    : "the outcome is being clarified with the target by key (reconciling); nothing is sent again", poll(unknown.retryAfter()));
        }
        if (answer instanceof GatewayAnswer.InProgress busy) {
            return new State(WORKING, "an attempt is being executed", poll(busy.retryAfter()));
        }
        if (answer instanceof GatewayAnswer.AwaitingApproval) {
            return new State(INPUT_REQUIRED, "a person with the approver role must approve exactly this request; nothing is sent before",
                    APPROVAL_POLL);
        }
        if (answer instanceof GatewayAnswer.TryLater later) { // the caller's retry sends it: the task waits on the agent, not on us
            return new State(WORKING, "the target refused for now and nothing was executed; call tools/call again with the same"
                    + " idempotency_key to send it", poll(later.retryAfter()));
        }
        if (answer instanceof GatewayAnswer.Done done && ApprovalStanding.DECLINED_CODE.equals(done.operation().errorCode())) {
            return new State(CANCELLED, "declined before anything was sent (by a person, or by tasks/cancel); nothing was executed", null);
        }
        return new State(COMPLETED, "settled; the result is the tool's answer", null);
    }

    /** A process: working while it goes on by itself, input_required while a step waits for a person, else completed. */
    static State of(ProcessStatus status, String detail, Duration retryAfter) {
        return switch (status) {
            case RUNNING, COMPENSATING, NEEDS_ATTENTION -> new State(WORKING, detail, poll(retryAfter));
            case AWAITING_APPROVAL -> new State(INPUT_REQUIRED, detail, APPROVAL_POLL);
            case COMPLETED, FAILED, COMPENSATED -> new State(COMPLETED, detail, null);
        };
    }

    private static Duration poll(Duration retryAfter) {
        return retryAfter == null || retryAfter.compareTo(MIN_POLL) < 0 ? MIN_POLL : retryAfter;
    }
}
