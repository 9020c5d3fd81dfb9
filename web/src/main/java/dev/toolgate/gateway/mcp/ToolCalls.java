package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.CardNumbers;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.gateway.rest.IdempotencyKeyHeader;
import dev.toolgate.gateway.rest.ProblemException;
import dev.toolgate.gateway.rest.ProblemType;
import dev.toolgate.journal.Journal;
import dev.toolgate.journal.JournalOutage;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.OperationRefused;
import dev.toolgate.trace.Trace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * {@code tools/call}: an operation tool submits through {@link CommandGateway} exactly as
 * {@code POST /api/v1/operations} does (same parser rules, same capture, same answers); the evidence tools
 * read the journal or resume through the gateway. No transaction here: the gateway's phases open their own.
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
    Journal journal;
    @Inject
    JournalSettings settings;

    /** The result of calling {@code tool}; throws {@link InvalidParams} when the arguments do not have its shape. */
    JsonObject call(Caller caller, Tool tool, JsonValue arguments, String api) {
        ToolResults results = new ToolResults(api, settings.retention());
        // first, before any message could quote it: card data never passes through the gateway, not even into an error
        String card = arguments instanceof JsonObject args ? CardNumbers.find("", args) : null;
        if (card != null) {
            return results.problem(ProblemType.CARD_NUMBER_REJECTED, card + " carries what looks like a payment card number", null);
        }
        Arguments.problem(tool, arguments).ifPresent(problem -> {
            throw new InvalidParams(problem);
        });
        JsonObject args = (JsonObject) arguments;
        try {
            return run(caller, tool, args, results);
        } catch (InvalidCommand e) {
            ProblemType type = e.reason() == InvalidCommand.Reason.CARD_NUMBER ? ProblemType.CARD_NUMBER_REJECTED
                    : ProblemType.valueOf(e.reason().name());
            return results.problem(type, e.getMessage(), key(args));
        } catch (OperationRefused e) {
            return results.problem(ProblemType.valueOf(e.reason().name()), e.getMessage(), key(args));
        } catch (ProblemException e) {
            return results.problem(e.type(), e.getMessage(), key(args));
        } catch (RuntimeException e) {
            if (JournalOutage.causes(e)) {
                return results.problem(ProblemType.JOURNAL_UNAVAILABLE, JOURNAL_RETRY, key(args));
            }
            throw e;
        }
    }

    private JsonObject run(Caller caller, Tool tool, JsonObject args, ToolResults results) {
        if (ToolCatalog.LIST_OPEN_OPERATIONS.equals(tool.name())) {
            return results.open(journal.open(caller.tenant(), OPEN_LIMIT));
        }
        String key = IdempotencyKeyHeader.check(args.getString(ToolSchemas.KEY));
        Trace.operation(key);
        if (ToolCatalog.GET_OPERATION.equals(tool.name())) {
            return journal.find(caller.tenant(), key).map(results::record)
                    .orElseGet(() -> results.problem(ProblemType.OPERATION_NOT_FOUND, "no operation of your tenant has this key", key));
        }
        if (ToolCatalog.RESUME_OPERATION.equals(tool.name())) {
            return results.of(gateway.resume(caller, key));
        }
        JsonObjectBuilder payload = JSON.createObjectBuilder(args);
        payload.remove(ToolSchemas.KEY);
        AgentCommand command = new AgentCommand(tool.operation().operation(), tool.operation().target(), payload.build());
        return results.of(gateway.submit(caller, key, command));
    }

    private static String key(JsonObject args) {
        return args.get(ToolSchemas.KEY) instanceof JsonString s && IdempotencyKeyHeader.isWellFormed(s.getString()) ? s.getString() : null;
    }

    /** Arguments without the tool's shape: JSON-RPC -32602, nothing stored. */
    static final class InvalidParams extends RuntimeException {
        InvalidParams(String message) {
            super(message, null, false, false);
        }
    }
}
