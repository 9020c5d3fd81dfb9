package dev.toolgate.gateway.mcp;

import dev.toolgate.access.Caller;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.gateway.ReplayWindow;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.process.ProcessAnswer;
import dev.toolgate.process.ProcessDriver;
import dev.toolgate.process.ProcessRecord;
import dev.toolgate.process.ProcessView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.time.Duration;
import java.util.Optional;

/**
 * A process as a task ({@code process:<key>}), its row the task, as {@link Tasks} does for an operation. It goes on by
 * itself (the reconcile job advances it), so {@code working} needs nobody; a step awaiting approval is input_required.
 */
@ApplicationScoped
public class ProcessTasks {

    static final String PROCESS = "process:";

    @Inject
    ProcessDriver processes;
    @Inject
    ReplayWindow replays;

    /** Whether a process's answer is one a task is made of: it waits, and goes on without this call. */
    static boolean unsettled(ProcessAnswer answer) {
        return answer instanceof ProcessAnswer.Busy || answer instanceof ProcessAnswer.Progressed p && p.retryAfter() != null;
    }

    JsonObject created(ProcessAnswer answer, Declared declared, String base) {
        ProcessRecord record = answer instanceof ProcessAnswer.Progressed p ? p.record() : ((ProcessAnswer.Busy) answer).record();
        Duration retryAfter = answer instanceof ProcessAnswer.Progressed p ? p.retryAfter() : ((ProcessAnswer.Busy) answer).retryAfter();
        return TaskJson.created(task(record, retryAfter, declared, base, null));
    }

    Optional<JsonObject> get(Caller caller, String key, Declared declared, String base) {
        if (!Tasks.mayRead(caller)) {
            return Optional.empty(); // never shown, as Tasks.get
        }
        return processes.find(caller.tenant(), key).map(record ->
                task(record, record.process().finished() ? null : TaskStatuses.MIN_POLL, declared, base,
                        new ToolResults(base + "/api", replays.length())).build());
    }

    /** An accepted approval page: the agent's resume of the process takes the step on, if a person approved it. */
    Optional<String> update(Caller caller, String key, JsonObject responses, String callId) {
        Optional<ProcessRecord> record = Tasks.mayRead(caller) ? processes.find(caller.tenant(), key) : Optional.empty(); // as Tasks.update
        if (record.isEmpty()) {
            return Optional.empty();
        }
        Optional<OperationView> step = awaitingApproval(record.get());
        if (step.isPresent() && responses.get(TaskJson.approvalInputKey(step.get().requestHash())) instanceof JsonObject response
                && "accept".equals(response.getString("action", "")) && Tasks.mayResume(caller)) {
            processes.resume(new ToolCall("tasks/update", callId), caller, key);
        }
        return Optional.of("taken");
    }

    /** A process is not cancelled by its agent: steps already sent stand, and it goes on to a recorded end. */
    Optional<String> cancel(Caller caller, String key) {
        return (Tasks.mayRead(caller) ? processes.find(caller.tenant(), key) : Optional.<ProcessRecord>empty()).map(record -> record.process().finished() ? "already settled; nothing to cancel"
                : "not cancelled: a process goes on to a recorded end (completed, or compensated), because steps already sent"
                + " stand; an operator can resolve it (docs/processes.md)");
    }

    private JsonObjectBuilder task(ProcessRecord record, Duration retryAfter, Declared declared, String base, ToolResults results) {
        ProcessView process = record.process();
        TaskStatuses.State state = TaskStatuses.of(process.status(), process.detail(), retryAfter);
        Optional<OperationView> step = awaitingApproval(record);
        if (TaskStatuses.INPUT_REQUIRED.equals(state.status()) && (step.isEmpty() || !declared.urlElicitation())) {
            state = new TaskStatuses.State(TaskStatuses.WORKING, state.message()
                    + step.map(s -> ": a person approves it at " + TaskJson.approvalPage(base, s.key())).orElse(""), state.poll());
        }
        JsonObjectBuilder task = TaskJson.task(PROCESS + process.key(), state, process.createdAt(), process.updatedAt(),
                process.completedAt(), replays.length());
        if (results != null && TaskStatuses.COMPLETED.equals(state.status())) {
            task.add("result", results.of(new ProcessAnswer.Progressed(record, false, true, null)));
        }
        if (results != null && TaskStatuses.INPUT_REQUIRED.equals(state.status())) {
            task.add("inputRequests", TaskJson.approvalRequest(base, step.get().key(), step.get().requestHash()));
        }
        return task;
    }

    /** The step operation the process waits on, when a person's approval is what it waits for. */
    private static Optional<OperationView> awaitingApproval(ProcessRecord record) {
        String waitingOn = record.process().waitingOn();
        return record.steps().stream().map(ProcessRecord.StepRecord::operation)
                .filter(op -> op != null && op.key().equals(waitingOn) && op.status() == OperationStatus.PENDING_APPROVAL).findFirst();
    }
}
