package dev.toolgate.process;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Principals;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.operation.OperationView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import java.util.HashMap;
import java.util.Map;

/**
 * Sends one stage of a process through {@link CommandGateway} exactly as an agent's own call, or says why it cannot.
 * The answer is read back from the journal by {@link ProcessAdvancer}; no transaction is open while the target is called.
 */
@ApplicationScoped
public class StageSender {

    @Inject
    CommandGateway gateway;
    @Inject
    Principals principals;

    /** Why a stage cannot be sent by the process itself; {@code passing}: a condition of this instance, looked at again. */
    public record Stuck(String why, boolean passing) {
    }

    /** Null when the gateway took the stage (whatever its answer); otherwise why the process cannot go on by itself. */
    public Stuck send(Stage stage, ProcessView process, Map<String, OperationView> operations, Caller caller, ToolCall call) {
        if (!stage.compensation() && !operations.containsKey(stage.key()) && !principals.live(caller.principalId())) {
            // a new effect in the name of a revoked agent is work nobody may start any more; compensations still run
            return new Stuck(stage.describe() + " is not sent: " + caller.principalId() + ", whose process it is, was revoked;"
                    + " a person decides what becomes of it", false);
        }
        JsonObject payload;
        try {
            payload = StepPayloads.build(stage.template(), process.payload(), byStep(process.key(), operations));
        } catch (StepTemplate.MissingValue e) {
            return new Stuck(stage.describe() + " needs " + e.reference() + ", which the record of that step lacks (was it resolved"
                    + " by hand without it?): a person must finish the process", false);
        }
        try {
            GatewayAnswer answer = gateway.submit(new ToolCall(stage.operation(), call.callId()), caller, stage.key(),
                    new AgentCommand(stage.operation(), stage.target(), payload));
            if (answer instanceof GatewayAnswer.KeyReused) {
                return new Stuck("the key " + stage.key() + " names another request (sent outside this process); " + stage.describe()
                        + " cannot run under it: a person must decide", false);
            }
            return null;
        } catch (InvalidCommand e) {
            return new Stuck(stage.describe() + " cannot be sent: " + e.getMessage(), e.reason() == InvalidCommand.Reason.UNKNOWN_TARGET);
        }
    }

    private static Map<String, OperationView> byStep(String processKey, Map<String, OperationView> operations) {
        Map<String, OperationView> steps = new HashMap<>();
        String prefix = processKey + "/";
        operations.forEach((key, operation) -> {
            String rest = key.substring(prefix.length());
            if (!rest.contains("/")) {
                steps.put(rest, operation);
            }
        });
        return steps;
    }
}
