package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.util.Optional;

/**
 * {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel} of the tasks extension, for 2026-07-28 requests.
 * A task id names an operation or a process of the caller's tenant; any other is an unknown task (-32602), the same
 * answer whether it never existed or belongs to another tenant.
 */
@ApplicationScoped
public class TaskMethods {

    /** Where the cancel's plain words go: the acknowledgement is an empty result, and its {@code _meta} is ours to use. */
    static final String META_CANCELLATION = "dev.toolgate/cancellation";

    @Inject
    Tasks operations;
    @Inject
    ProcessTasks processes;

    JsonObject answer(Caller caller, JsonRpc.Call call, Declared declared, String api) {
        if (!(call.params().get("taskId") instanceof JsonString id) || id.getString().isEmpty()) {
            return JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, "params.taskId must name a task");
        }
        String taskId = id.getString();
        String base = ToolCalls.base(api);
        if ("tasks/update".equals(call.method()) && !(call.params().get("inputResponses") instanceof JsonObject)) {
            return JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, "params.inputResponses must be an object keyed like the task's inputRequests");
        }
        Optional<JsonObject> result = switch (call.method()) {
            case "tasks/get" -> get(caller, taskId, declared, base);
            case "tasks/update" -> update(caller, taskId, call.params().getJsonObject("inputResponses"), JsonRpc.idText(call.id()));
            default -> cancel(caller, taskId).map(words -> JSON.createObjectBuilder()
                    .add("_meta", JSON.createObjectBuilder().add(META_CANCELLATION, words)).build());
        };
        return result.map(r -> JsonRpc.result(call.id(), r))
                .orElseGet(() -> JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, "unknown task: no operation or process of your tenant has it"));
    }

    private Optional<JsonObject> get(Caller caller, String taskId, Declared declared, String base) {
        if (taskId.startsWith(Tasks.OPERATION)) {
            return operations.get(caller, taskId.substring(Tasks.OPERATION.length()), declared, base);
        }
        return taskId.startsWith(ProcessTasks.PROCESS)
                ? processes.get(caller, taskId.substring(ProcessTasks.PROCESS.length()), declared, base) : Optional.empty();
    }

    private Optional<JsonObject> update(Caller caller, String taskId, JsonObject responses, String callId) {
        if (taskId.startsWith(Tasks.OPERATION)) {
            return operations.update(caller, taskId.substring(Tasks.OPERATION.length()), responses, callId).map(taken -> JsonObject.EMPTY_JSON_OBJECT);
        }
        return taskId.startsWith(ProcessTasks.PROCESS)
                ? processes.update(caller, taskId.substring(ProcessTasks.PROCESS.length()), responses, callId).map(taken -> JsonObject.EMPTY_JSON_OBJECT)
                : Optional.empty();
    }

    private Optional<String> cancel(Caller caller, String taskId) {
        if (taskId.startsWith(Tasks.OPERATION)) {
            return operations.cancel(caller, taskId.substring(Tasks.OPERATION.length()));
        }
        return taskId.startsWith(ProcessTasks.PROCESS) ? processes.cancel(caller, taskId.substring(ProcessTasks.PROCESS.length()))
                : Optional.empty();
    }
}
