package dev.toolgate.process;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.operation.OperationStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Decides what a process does next from its steps' recorded states alone (a pure function). Steps run in order and
 * never past one that has not succeeded, so an unknown holds the process until a look-up settles it. When a step
 * fails for good, earlier steps are compensated latest first; a failed compensation stops there for a person.
 */
public final class ProcessProgress {

    private ProcessProgress() {
    }

    public record Progress(ProcessStatus status, Next next, String detail) {
    }

    public sealed interface Next {
    }

    /** Send this stage (a step, or a step's compensation) through the gateway under its key. */
    public record Submit(Stage stage) implements Next {
    }

    /** Nothing to send now: something else (a person, a look-up, a back-off) acts first; look again at {@code checkAt}. */
    public record Wait(Stage stage, Instant checkAt) implements Next {
    }

    public record Settled() implements Next {
    }

    /** {@code states}: a stage's recorded state by key, null if never submitted; {@code poll}: when to look again at a wait. */
    public static Progress decide(ProcessType type, String processKey, Function<String, StepState> states, Instant now, Duration poll) {
        List<StepDeclaration> succeeded = new ArrayList<>();
        for (StepDeclaration step : type.steps()) {
            Stage stage = Stage.forward(processKey, step);
            StepState state = states.apply(stage.key());
            if (state != null && state.status() == OperationStatus.SUCCEEDED) {
                succeeded.add(step);
                continue;
            }
            if (state != null && state.status() == OperationStatus.FAILED_FINAL) {
                return compensate(processKey, step, state, succeeded, states, now, poll);
            }
            return pending(stage, state, ProcessStatus.RUNNING, now, poll);
        }
        return new Progress(ProcessStatus.COMPLETED, new Settled(), "every step succeeded");
    }

    private static Progress compensate(String processKey, StepDeclaration failed, StepState failure, List<StepDeclaration> succeeded,
                                       Function<String, StepState> states, Instant now, Duration poll) {
        String why = "step '" + failed.name() + "' failed (" + (failure.errorCode() == null ? "no error recorded" : failure.errorCode()) + ")";
        List<String> compensated = new ArrayList<>();
        List<String> impossible = new ArrayList<>();
        List<String> nothing = new ArrayList<>(); // not undone, and the declaration says why none is needed
        for (int i = succeeded.size() - 1; i >= 0; i--) {
            StepDeclaration step = succeeded.get(i);
            if (step.compensation() instanceof Compensation.Irreversible irreversible) {
                impossible.add("'" + step.name() + "' (" + irreversible.reason() + ")");
                continue;
            }
            if (step.compensation() instanceof Compensation.NothingToUndo none) {
                nothing.add("'" + step.name() + "' (" + none.reason() + ")");
                continue;
            }
            Stage stage = Stage.compensation(processKey, step);
            StepState state = states.apply(stage.key());
            if (state != null && state.status() == OperationStatus.SUCCEEDED) {
                compensated.add("'" + step.name() + "'");
                continue;
            }
            if (state != null && state.status() == OperationStatus.FAILED_FINAL) {
                return new Progress(ProcessStatus.NEEDS_ATTENTION, new Settled(), why + "; the compensation of '" + step.name()
                        + "' failed (" + state.errorCode() + "): a person must undo it and what comes before it"
                        + (compensated.isEmpty() ? "" : "; compensated: " + String.join(", ", compensated))
                        + (impossible.isEmpty() ? "" : "; cannot be compensated: " + String.join(", ", impossible)));
            }
            Progress pending = pending(stage, state, ProcessStatus.COMPENSATING, now, poll);
            return new Progress(pending.status(), pending.next(), why + "; " + pending.detail());
        }
        String notUndone = nothing.isEmpty() ? "" : "; not undone, as declared: " + String.join(", ", nothing);
        if (!impossible.isEmpty()) {
            return new Progress(ProcessStatus.NEEDS_ATTENTION, new Settled(), why + (compensated.isEmpty() ? "" : "; compensated: "
                    + String.join(", ", compensated)) + "; cannot be compensated: " + String.join(", ", impossible) + notUndone);
        }
        if (compensated.isEmpty()) {
            return new Progress(ProcessStatus.FAILED, new Settled(), why + "; nothing before it needed compensating" + notUndone);
        }
        return new Progress(ProcessStatus.COMPENSATED, new Settled(), why + "; compensated: " + String.join(", ", compensated) + notUndone);
    }

    /**
     * Only a standing approval sends the stage. One that expired or was revoked would make the gateway fail it and the
     * process compensate while an approver may still grant it anew, so the stage waits for a new decision instead.
     */
    private static Progress approval(Stage stage, ApprovalStanding approval, ProcessStatus running, Instant later) {
        String name = stage.describe();
        if (approval.permitsAttempt()) {
            return new Progress(running, new Submit(stage), name + " is approved and is sent");
        }
        ProcessStatus waiting = running == ProcessStatus.RUNNING ? ProcessStatus.AWAITING_APPROVAL : running;
        return new Progress(waiting, new Wait(stage, later), switch (approval) {
            case EXPIRED -> name + "'s approval expired before it was sent: it waits for a person's new approval of exactly what"
                    + " it would send";
            case REVOKED -> name + "'s approval was revoked before it was sent: it waits for a person's new decision";
            default -> name + " waits for a person's approval of exactly what it would send";
        });
    }

    /** A stage that has not finished: send it, or wait for whoever acts first. */
    private static Progress pending(Stage stage, StepState state, ProcessStatus running, Instant now, Duration poll) {
        String name = stage.describe();
        if (state == null) {
            return new Progress(running, new Submit(stage), name + " starts");
        }
        Instant later = now.plus(poll);
        return switch (state.status()) {
            case PENDING_APPROVAL -> approval(stage, state.approval(), running, later);
            case FAILED_RETRYABLE -> state.nextCheckAt() == null || !state.nextCheckAt().isAfter(now)
                    ? new Progress(running, new Submit(stage), name + " is tried again")
                    : new Progress(running, new Wait(stage, state.nextCheckAt()), name + ": the target refused it for now, and nothing"
                            + " was executed; the next attempt is due at " + state.nextCheckAt());
            case STARTED -> state.leaseFree(now) // its sender is gone: the gateway looks it up before anything is sent
                    ? new Progress(running, new Submit(stage), name + " was left by its sender; it is looked up by its key")
                    : new Progress(running, new Wait(stage, later), name + " is being sent");
            case UNKNOWN -> {
                if (state.escalated()) {
                    yield new Progress(ProcessStatus.NEEDS_ATTENTION, new Wait(stage, later), name + "'s outcome is unknown and"
                            + " escalated: a person settles it, and the process goes on from what they record");
                }
                String detail = name + "'s outcome is unknown: it is looked up at the target by its key before anything else happens";
                // its look-up is due: the gateway makes it now (as for an agent's retry), rather than waiting for the job
                boolean due = state.leaseFree(now) && (state.nextCheckAt() == null || !state.nextCheckAt().isAfter(now));
                yield new Progress(running, due ? new Submit(stage) : new Wait(stage, later), detail);
            }
            case SUCCEEDED, FAILED_FINAL -> throw new IllegalArgumentException("a finished stage is not pending: " + stage.key());
        };
    }
}
