package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.gateway.AgentAnswers;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.gateway.ReplayWindow;
import dev.toolgate.search.OperationRecords;
import dev.toolgate.trace.Trace;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The task-creating fixtures' work, done by the product: a real operation under a fresh key naming the fixture
 * ({@code conformance:<operation>:<intent>-<uuid>:v1}), by which the suite arms the simulator. A client that declared
 * tasks gets, once the journal holds the row, the {@code CreateTaskResult} {@link Tasks} makes of it (the product's own
 * task, read by the same {@code tasks/get}); any other gets the tool result, on the request thread.
 */
@ApplicationScoped
class JournaledWork {

    /** The capture is one short transaction; a row not there by then is a fault the suite should see as an error. */
    private static final Duration CAPTURED = Duration.ofSeconds(10);
    private static final long LOOK_AGAIN_MS = 20;

    @Inject
    CommandGateway gateway;
    @Inject
    OperationRecords records;
    @Inject
    Tasks tasks;
    @Inject
    ReplayWindow replays;
    @Resource
    ManagedExecutorService executor;

    /** An invoice at the 1C simulator, under a key holding {@code intent}. */
    JsonObject invoice(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api, String intent) {
        return reply(caller, call, era, api, intent, new AgentCommand("invoice.create", "1c", JSON.createObjectBuilder()
                .add("order_id", intent).add("amount_minor", 100).add("currency", "RUB").build()));
    }

    JsonObject reply(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api, String intent, AgentCommand command) {
        String key = "conformance:" + command.operation() + ":" + intent + "-" + UUID.randomUUID() + ":v1";
        ToolCall tool = new ToolCall(call.params().getString("name"), JsonRpc.idText(call.id()));
        Declared declared = Declared.of(era);
        if (!declared.tasks()) {
            return JsonRpc.result(call.id(), new ToolResults(api, replays.length()).of(gateway.submit(tool, caller, key, command)));
        }
        String traceId = Trace.traceId();
        Future<GatewayAnswer> sent = executor.submit(() -> {
            try (Trace trace = Trace.start(traceId)) { // the work goes on in the call's trace
                return gateway.submit(tool, caller, key, command);
            }
        });
        return JsonRpc.result(call.id(), tasks.created(captured(caller, key, sent), declared, ToolCalls.base(api)));
    }

    /** The answer as soon as the journal holds the operation (or the gateway answered first): the task is durable. */
    private GatewayAnswer captured(Caller caller, String key, Future<GatewayAnswer> sent) {
        Instant deadline = Instant.now().plus(CAPTURED);
        try {
            while (Instant.now().isBefore(deadline)) {
                if (sent.isDone()) {
                    return sent.get();
                }
                Optional<OperationRecords.OperationRecord> row = records.find(caller.tenant(), key);
                if (row.isPresent()) {
                    return AgentAnswers.of(row.get().operation(), false, Instant.now());
                }
                Thread.sleep(LOOK_AGAIN_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the fixture's operation failed", e.getCause());
        }
        throw new IllegalStateException("the fixture's operation was not captured within " + CAPTURED);
    }
}
