package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.gateway.edge.IdempotencyKeyHeader;
import dev.toolgate.gateway.edge.ProblemException;
import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.search.OperationRecords;
import dev.toolgate.access.Caller;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.CardNumbers;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.gateway.ReplayWindow;
import dev.toolgate.gateway.edge.InputRefused;
import dev.toolgate.platform.JournalOutage;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.trace.Trace;
import jakarta.enterprise.context.ApplicationScoped;
import dev.toolgate.process.ProcessAnswer;
import dev.toolgate.process.ProcessCommand;
import dev.toolgate.process.ProcessDriver;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Optional;

/**
 * {@code tools/call}: an operation tool submits through {@link CommandGateway} exactly as {@code POST /api/v1/operations}
 * does; the evidence tools read the journal or resume through the gateway. No transaction here: the gateway's phases
 * open their own.
 */
@ApplicationScoped
public class ToolCalls {

    /** As for REST: a PostgreSQL restart or failover takes seconds. */
    private static final String JOURNAL_RETRY = "the journal database does not answer; call again with the same idempotency_key in 5 s";
    /** list_open_operations shows at most this many, oldest first: what one agent can work through. */
    static final int OPEN_LIMIT = 200;

    @Inject
    CommandGateway gateway;
    @Inject
    OperationRecords records;
    @Inject
    ProcessDriver processes;
    @Inject
    ReplayWindow replays;
    @Inject
    Tasks tasks;
    @Inject
    ProcessTasks processTasks;
    @Inject
    ApprovalRounds rounds;

    /**
     * For a tool the caller may call. Arguments without its shape get an error result, never a protocol error: the
     * model must read what to correct (SEP-1303).
     */
    JsonObject call(Caller caller, Tool tool, JsonValue arguments, String api, String callId) {
        return call(caller, tool, arguments, api, callId, Declared.NOTHING);
    }

    /** The same, for a client that declared what it handles: tasks get a task for an operation that cannot settle now. */
    JsonObject call(Caller caller, Tool tool, JsonValue arguments, String api, String callId, Declared declared) {
        ToolResults results = new ToolResults(api, replays.length());
        // first, before any message could quote it: card data never passes through the gateway, not even into an error
        String card = arguments instanceof JsonObject args ? CardNumbers.find("", args) : null;
        if (card != null) {
            return results.problem(ProblemType.CARD_NUMBER_REJECTED, card + " carries what looks like a payment card number", null);
        }
        Optional<Arguments.Refusal> refusal = Arguments.problem(tool, arguments);
        if (refusal.isPresent()) { // refused before the gateway: nothing stored, nothing sent
            Arguments.Refusal r = refusal.get();
            return results.problem(r.type(), r.detail(), arguments instanceof JsonObject args ? key(args) : null, r.argument());
        }
        JsonObject args = (JsonObject) arguments;
        try {
            return run(caller, tool, args, results, callId, declared, api);
        } catch (InvalidCommand e) {
            ProblemType type = e.reason() == InvalidCommand.Reason.CARD_NUMBER ? ProblemType.CARD_NUMBER_REJECTED
                    : ProblemType.valueOf(e.reason().name());
            return results.problem(type, e.getMessage(), key(args), e.field());
        } catch (OperationRefused e) {
            return results.problem(ProblemType.valueOf(e.reason().name()), e.getMessage(), key(args));
        } catch (ProblemException e) {
            return results.problem(e.type(), e.getMessage(), key(args));
        } catch (InputRefused e) {
            return results.problem(e.kind() == InputRefused.Kind.CARD_NUMBER ? ProblemType.CARD_NUMBER_REJECTED : ProblemType.INVALID_REQUEST,
                    e.getMessage(), key(args));
        } catch (RuntimeException e) {
            if (JournalOutage.causes(e)) {
                return results.problem(ProblemType.JOURNAL_UNAVAILABLE, JOURNAL_RETRY, key(args));
            }
            throw e;
        }
    }

    private JsonObject run(Caller caller, Tool tool, JsonObject args, ToolResults results, String callId, Declared declared, String api) {
        if (ToolCatalog.LIST_OPEN_OPERATIONS.equals(tool.name())) {
            return results.open(records.open(caller.tenant(), OPEN_LIMIT));
        }
        String key = IdempotencyKeyHeader.check(args.getString(ToolSchemas.KEY));
        Trace.operation(key);
        if (ToolCatalog.GET_OPERATION.equals(tool.name())) {
            return records.find(caller.tenant(), key).map(results::record)
                    .orElseGet(() -> results.problem(ProblemType.OPERATION_NOT_FOUND, "no operation of your tenant has this key", key));
        }
        if (ToolCatalog.RESUME_OPERATION.equals(tool.name())) {
            return results.of(gateway.resume(new ToolCall(tool.name(), callId), caller, key));
        }
        if (ToolCatalog.GET_PROCESS.equals(tool.name())) {
            return processes.find(caller.tenant(), key).map(results::process)
                    .orElseGet(() -> results.problem(ProblemType.PROCESS_NOT_FOUND, "no process of your tenant has this key", key));
        }
        if (ToolCatalog.RESUME_PROCESS.equals(tool.name())) {
            return results.of(processes.resume(new ToolCall(tool.name(), callId), caller, key));
        }
        JsonObjectBuilder payload = JSON.createObjectBuilder(args);
        payload.remove(ToolSchemas.KEY);
        if (tool.process() != null) { // the same submit as POST /api/v1/processes, and the same key rule
            IdempotencyKeyHeader.processKey(key);
            ProcessAnswer answer = processes.submit(new ToolCall(tool.name(), callId), caller, key,
                    new ProcessCommand(tool.process().name(), payload.build()));
            return declared.tasks() && ProcessTasks.unsettled(answer) ? processTasks.created(answer, declared, base(api)) : results.of(answer);
        }
        AgentCommand command = new AgentCommand(tool.operation().operation(), tool.operation().target(), payload.build());
        GatewayAnswer answer = gateway.submit(new ToolCall(tool.name(), callId), caller, key, command);
        if (declared.tasks() && TaskStatuses.unsettled(answer)) {
            return tasks.created(answer, declared, base(api));
        }
        return answer instanceof GatewayAnswer.AwaitingApproval waiting && declared.urlElicitation()
                ? rounds.inputRequired(caller, waiting, base(api)) : results.of(answer);
    }

    /** The deployment's base: {@code api} is it plus {@code /api}. */
    static String base(String api) {
        return api.substring(0, api.length() - "/api".length());
    }

    private static String key(JsonObject args) {
        return args.get(ToolSchemas.KEY) instanceof JsonString s && IdempotencyKeyHeader.isWellFormed(s.getString()) ? s.getString() : null;
    }
}
