package dev.toolgate.gateway;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;

/**
 * An agent's call as a tool execution in OpenTelemetry's GenAI conventions ({@code execute_tool <tool>},
 * {@code gen_ai.operation.name}, {@code gen_ai.tool.name}, {@code gen_ai.tool.call.id}), the child of the
 * call's server span; both carry the operation's attributes and, once answered, the status the journal holds.
 */
final class ToolExecution {

    private ToolExecution() {
    }

    static Step start(ToolCall call, OperationAttributes operation) {
        if (!Spans.recording()) {
            return Spans.step(call.toolName(), operation); // nothing recorded: nothing to name
        }
        Spans.annotateServer(operation);
        return Spans.step("execute_tool " + call.toolName(), operation)
                .set("gen_ai.operation.name", "execute_tool")
                .set("gen_ai.tool.name", call.toolName())
                .set("gen_ai.tool.call.id", Spans.identifier(call.callId(), Spans.MAX_ID));
    }

    /** {@code answer}, with what it says set on the tool's span: the status, the target's object, the attempt, the error class. */
    static GatewayAnswer answered(Step tool, GatewayAnswer answer) {
        OperationView operation = answer.operation();
        String status = operation.status().dbName();
        tool.attempt(operation.attemptCount()).after(status, status, operation.targetObjectId());
        if (answer instanceof GatewayAnswer.KeyReused) {
            tool.failed("idempotency_key_reused");
        } else if (answer instanceof GatewayAnswer.FingerprintUncheckable) {
            tool.failed("fingerprint_scheme_unknown");
        } else if (operation.status() != OperationStatus.SUCCEEDED) {
            tool.failed(operation.errorCode());
        }
        if (answer instanceof GatewayAnswer.Done done && done.replayed()) {
            tool.outcome("replayed");
        }
        return answer;
    }
}
