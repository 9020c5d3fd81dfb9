package dev.toolgate.gateway.mcp;


import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.approval.Approvals;
import dev.toolgate.gateway.AgentAnswers;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.gateway.ReplayWindow;
import dev.toolgate.notification.NoticeSettings;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.search.OperationRecords;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.time.Instant;
import java.util.Optional;

/**
 * Long operations as durable tasks (extension {@code io.modelcontextprotocol/tasks}; docs/mcp.md, Tasks). The journal
 * row is the task, its id the key behind a prefix ({@code operation:<key>}): committed before the answer, it is durable
 * as the extension requires, and a lost {@code CreateTaskResult} is recovered by calling the tool again with the key.
 */
@ApplicationScoped
public class Tasks {

    static final String OPERATION = "operation:";

    @Inject
    OperationRecords records;
    @Inject
    CommandGateway gateway;
    @Inject
    Approvals approvals;
    @Inject
    ReplayWindow replays;
    @Inject
    NoticeSettings notices;

    /** The {@code CreateTaskResult} for an unsettled answer ({@link TaskStatuses#unsettled}). */
    JsonObject created(GatewayAnswer answer, Declared declared, String base) {
        return TaskJson.created(task(answer, declared, base, null));
    }

    /** {@code tasks/get}: the task as the journal has it now; empty for a task this tenant does not have. */
    Optional<JsonObject> get(Caller caller, String key, Declared declared, String base) {
        if (!mayRead(caller)) {
            return Optional.empty(); // as a tool it may not call: never shown, so the same answer as an unknown task
        }
        return records.find(caller.tenant(), key).map(record -> {
            GatewayAnswer answer = AgentAnswers.of(record.operation(), true, Instant.now(), notices.noticeWait(record.operation().target(), record.operation().operation()));
            return task(answer, declared, base, new ToolResults(base + "/api", replays.length())).build();
        });
    }

    /** {@code tasks/update}: a person's approval was accepted on the page; the agent's resume sends it if it stands. */
    Optional<String> update(Caller caller, String key, JsonObject responses, String callId) {
        // one who may not read a task is answered as for an unknown one: whether a key exists is not told
        Optional<OperationRecords.OperationRecord> record = mayRead(caller) ? records.find(caller.tenant(), key) : Optional.empty();
        if (record.isEmpty()) {
            return Optional.empty();
        }
        OperationView op = record.get().operation();
        if (responses.get(TaskJson.approvalInputKey(op.requestHash())) instanceof JsonObject response
                && "accept".equals(response.getString("action", "")) && op.status() == OperationStatus.PENDING_APPROVAL && mayResume(caller)) {
            gateway.resume(new ToolCall("tasks/update", callId), caller, key); // without a standing approval it sends nothing
        }
        return Optional.of("taken");
    }

    /**
     * {@code tasks/cancel}: what was not sent is declined for good and recorded so; what may have reached the target
     * is not stopped — a half-known effect must end in a recorded outcome, looked up by key, or it could happen twice.
     */
    Optional<String> cancel(Caller caller, String key) {
        Optional<OperationRecords.OperationRecord> record = mayRead(caller) ? records.find(caller.tenant(), key) : Optional.empty();
        if (record.isEmpty()) {
            return Optional.empty();
        }
        OperationView op = record.get().operation();
        if (op.status().isTerminal()) {
            return Optional.of("already settled; nothing to cancel");
        }
        if (op.status() != OperationStatus.PENDING_APPROVAL) {
            return Optional.of("not cancelled: an attempt may have reached the target, so it runs to a recorded outcome, looked up"
                    + " by key before anything is sent again; tasks/get or the tool with the same key returns it");
        }
        if (!mayCancel(caller, op)) {
            return Optional.of("not cancelled: only the agent that submitted it, or an approver, may withdraw it");
        }
        try {
            approvals.decline(caller, key, op.requestHash(), "cancelled by " + caller.principalId() + " through MCP tasks/cancel");
            return Optional.of("cancelled: nothing had been sent, and nothing will be");
        } catch (OperationRefused raced) { // an approval or a decline came first: the record says which
            return Optional.of("not cancelled: " + raced.getMessage());
        }
    }

    /** Who may move an operation on by its key, as resume_operation: an agent or an operator. */
    static boolean mayResume(Caller caller) {
        return caller.has(Role.AGENT) || caller.has(Role.OPERATOR);
    }

    /** Who may read a task, as get_operation: every role that reads a record; an admin alone manages principals. */
    static boolean mayRead(Caller caller) {
        return caller.has(Role.AGENT) || caller.has(Role.APPROVER) || caller.has(Role.OPERATOR) || caller.has(Role.AUDITOR);
    }

    /**
     * The submitting agent or an approver (REST's decline is an approver's alone); not another agent of the tenant:
     * withdrawing ends the key for good and revokes an approval a person may already have granted.
     */
    static boolean mayCancel(Caller caller, OperationView op) {
        return caller.principalId().equals(op.agentId()) && caller.has(Role.AGENT) || caller.has(Role.APPROVER);
    }

    private JsonObjectBuilder task(GatewayAnswer answer, Declared declared, String base, ToolResults results) {
        OperationView op = answer.operation();
        TaskStatuses.State state = TaskStatuses.of(answer);
        String page = TaskJson.approvalPage(base, op.key());
        if (TaskStatuses.INPUT_REQUIRED.equals(state.status()) && !declared.urlElicitation()) { // no way to show the page: say where it is
            state = new TaskStatuses.State(TaskStatuses.WORKING, state.message() + ": " + page, state.poll());
        }
        JsonObjectBuilder task = TaskJson.task(OPERATION + op.key(), state, op.createdAt(), op.updatedAt(), op.completedAt(), replays.length());
        if (results != null && TaskStatuses.COMPLETED.equals(state.status())) {
            task.add("result", results.of(answer));
        }
        if (results != null && TaskStatuses.INPUT_REQUIRED.equals(state.status())) {
            task.add("inputRequests", TaskJson.approvalRequest(base, op.key(), op.requestHash()));
        }
        return task;
    }
}
