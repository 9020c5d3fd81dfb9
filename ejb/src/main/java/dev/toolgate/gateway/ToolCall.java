package dev.toolgate.gateway;

/**
 * How an agent's call reached the gateway, for its trace: the tool the agent's framework executed
 * ({@code gen_ai.tool.name}) and, through MCP, the JSON-RPC id of the {@code tools/call}
 * ({@code gen_ai.tool.call.id}), so a tracing backend shows the call as a tool execution of the agent's trace.
 */
public record ToolCall(String toolName, String callId) {

    /** A call of the REST API: the tool is the operation itself. */
    public static ToolCall rest(String operation) {
        return new ToolCall(operation, null);
    }
}
