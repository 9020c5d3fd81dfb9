package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.trace.StructuredLog;
import jakarta.enterprise.context.ApplicationScoped;
import dev.toolgate.process.ProcessCatalog;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/** The JSON-RPC methods this server answers: the lifecycle ({@code initialize}, {@code ping}) and the tools. */
@ApplicationScoped
public class McpMethods {

    private static final Logger LOG = Logger.getLogger(McpMethods.class.getName());
    static final String INSTRUCTIONS = "Toolgate executes business operations exactly once per idempotency_key."
            + " Make one key per business intent (<contour>:<operation>:<intent-id>:<version>) and reuse it, with the same"
            + " arguments, on every retry — after a timeout, an error or an answer that the outcome is being clarified."
            + " Never make a new key to 'try again'. Approvals are given by people, never by the agent.";

    @Inject
    ToolCalls calls;
    @Inject
    ProcessCatalog processCatalog;

    /** The process types' tools, built once: the catalog is read at start-up and does not change while deployed. */
    private volatile List<Tool> processTools;

    /** The reply to {@code call} by {@code caller}; {@code api} is the REST API's absolute base, for links. */
    JsonObject answer(Caller caller, JsonRpc.Call call, String api) {
        try {
            return switch (call.method()) {
                case "initialize" -> JsonRpc.result(call.id(), initialize(call.params()));
                case "ping" -> JsonRpc.result(call.id(), JsonValue.EMPTY_JSON_OBJECT);
                case "tools/list" -> JsonRpc.result(call.id(), list(caller, processTools()));
                case "tools/call" -> callTool(caller, call, api);
                default -> JsonRpc.error(call.id(), JsonRpc.METHOD_NOT_FOUND, "method not found: " + call.method());
            };
        } catch (RuntimeException e) { // a bug: logged by class and frame, never by message (it may quote a payload)
            String incident = StructuredLog.incident(LOG, "unexpected failure in an MCP call", Map.of("method", call.method()), e);
            return JsonRpc.error(call.id(), JsonRpc.INTERNAL_ERROR, "internal error, incident " + incident);
        }
    }

    static JsonObject initialize(JsonObject params) {
        return JSON.createObjectBuilder()
                .add("protocolVersion", ProtocolVersions.negotiate(params))
                .add("capabilities", JSON.createObjectBuilder().add("tools", JSON.createObjectBuilder().add("listChanged", false)))
                .add("serverInfo", JSON.createObjectBuilder().add("name", "toolgate").add("title", "Toolgate").add("version", "0.1.0"))
                .add("instructions", INSTRUCTIONS)
                .build();
    }

    static JsonObject list(Caller caller, List<Tool> processTools) {
        JsonArrayBuilder tools = JSON.createArrayBuilder();
        ToolCatalog.visibleTo(caller).forEach(t -> tools.add(t.definition()));
        processTools.stream().filter(t -> t.callableBy(caller)).forEach(t -> tools.add(t.definition()));
        return JSON.createObjectBuilder().add("tools", tools).build();
    }

    private List<Tool> processTools() {
        List<Tool> tools = processTools;
        if (tools == null) {
            tools = ToolCatalog.processes(processCatalog.types());
            processTools = tools;
        }
        return tools;
    }

    private JsonObject callTool(Caller caller, JsonRpc.Call call, String api) {
        if (!(call.params().get("name") instanceof JsonString name)) {
            return JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, "params.name must name a tool");
        }
        // a tool this principal may not call is one it was never shown: the same answer as an unknown name, which
        // stays a protocol error (2025-11-25 keeps it one); only a known tool's arguments are answered as its result
        Optional<Tool> tool = ToolCatalog.find(name.getString())
                .or(() -> processTools().stream().filter(t -> t.name().equals(name.getString())).findFirst())
                .filter(t -> t.callableBy(caller));
        if (tool.isEmpty()) {
            return JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, "unknown tool: " + name.getString());
        }
        JsonValue arguments = call.params().getOrDefault("arguments", JsonValue.EMPTY_JSON_OBJECT);
        return JsonRpc.result(call.id(), calls.call(caller, tool.get(), arguments, api, JsonRpc.idText(call.id())));
    }
}
