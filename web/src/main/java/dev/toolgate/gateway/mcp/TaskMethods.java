package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.gateway.edge.InputRefused;
import dev.toolgate.gateway.edge.Inputs;
import dev.toolgate.gateway.edge.ProblemException;
import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.platform.JournalOutage;
import dev.toolgate.operation.OperationRefused;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;

import java.util.Optional;

/**
 * {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel} of the tasks extension, for 2026-07-28 requests.
 * A task id names an operation or a process of the caller's tenant; any other is an unknown task (-32602), whether it
 * never existed or is another tenant's. A refusal of the journal's or the gateway's is answered as such, never as a bug.
 */
@ApplicationScoped
public class TaskMethods {

    /** Where the cancel's plain words go: the acknowledgement is an empty result, and its {@code _meta} is ours to use. */
    static final String META_CANCELLATION = "dev.toolgate/cancellation";
    /** As for a tool call: a PostgreSQL restart or failover takes seconds. */
    private static final int JOURNAL_RETRY_SECONDS = 5;
    private static final String JOURNAL_RETRY = "the journal database does not answer; nothing was done; send the same request in "
            + JOURNAL_RETRY_SECONDS + " s";

    @Inject
    Tasks operations;
    @Inject
    ProcessTasks processes;

    JsonObject answer(Caller caller, JsonRpc.Call call, Declared declared, String api) {
        if (!(call.params().get("taskId") instanceof JsonString id) || id.getString().isEmpty()) {
            return JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, "params.taskId must name a task");
        }
        String taskId = id.getString();
        if ("tasks/update".equals(call.method()) && !(call.params().get("inputResponses") instanceof JsonObject)) {
            return JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, "params.inputResponses must be an object keyed like the task's inputRequests");
        }
        try {
            Inputs.key("params.taskId's key", key(taskId)); // before any look-up: a NUL or a card number never reaches SQL
            return answer(caller, call, taskId, declared, ToolCalls.base(api));
        } catch (InputRefused e) { // the message says what is wrong, never what was sent
            return JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, e.getMessage());
        } catch (OperationRefused e) {
            return refused(call, ProblemType.valueOf(e.reason().name()), e.getMessage());
        } catch (ProblemException e) {
            return refused(call, e.type(), e.getMessage());
        } catch (RuntimeException e) {
            if (!JournalOutage.causes(e)) {
                throw e;
            }
            return JsonRpc.error(call.id(), JsonRpc.SERVER_UNAVAILABLE, JOURNAL_RETRY, problem(ProblemType.JOURNAL_UNAVAILABLE)
                    .add("retry_after_seconds", JOURNAL_RETRY_SECONDS).build());
        }
    }

    /** The key a task id names, or the whole id when it names none (then no look-up is made, and it is an unknown task). */
    private static String key(String taskId) {
        if (taskId.startsWith(Tasks.OPERATION)) {
            return taskId.substring(Tasks.OPERATION.length());
        }
        return taskId.startsWith(ProcessTasks.PROCESS) ? taskId.substring(ProcessTasks.PROCESS.length()) : taskId;
    }

    /** A refusal of the gateway's, with the REST API's problem type: the same request will not do. */
    private static JsonObject refused(JsonRpc.Call call, ProblemType type, String detail) {
        return JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, detail, problem(type).build());
    }

    private static JsonObjectBuilder problem(ProblemType type) {
        return JSON.createObjectBuilder().add("type", type.uri()).add("title", type.title());
    }

    private JsonObject answer(Caller caller, JsonRpc.Call call, String taskId, Declared declared, String base) {
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
