package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.trace.StructuredLog;
import jakarta.enterprise.context.ApplicationScoped;
import dev.toolgate.process.ProcessCatalog;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The JSON-RPC methods this server answers: discovery ({@code server/discover}), the legacy lifecycle
 * ({@code initialize}, {@code ping}, not part of 2026-07-28) and the tools.
 */
@ApplicationScoped
public class McpMethods {

    private static final Logger LOG = Logger.getLogger(McpMethods.class.getName());
    static final String INSTRUCTIONS = "Toolgate executes business operations exactly once per idempotency_key."
            + " Make one key per business intent (<contour>:<operation>:<intent-id>:<version>) and reuse it, with the same"
            + " arguments, on every retry — after a timeout, an error or an answer that the outcome is being clarified."
            + " Never make a new key to 'try again'. Approvals are given by people, never by the agent.";

    static final JsonObject SERVER_INFO = JSON.createObjectBuilder().add("name", "toolgate").add("title", "Toolgate")
            .add("version", "0.1.0").build();

    @Inject
    ToolCalls calls;
    @Inject
    ProcessCatalog processCatalog;
    @Inject
    TaskMethods taskMethods;
    @Inject
    ApprovalRounds rounds;
    /** None in the product; a test deployment's fixture tools (see {@link MountedTool}). */
    List<MountedTool> mounted = List.of();

    /** The beans are found once, at injection: a deployment's tools do not change while it is deployed. */
    @Inject
    void mount(Instance<MountedTool> found) {
        mounted = found.stream().toList();
    }

    /** The process types' tools, built once: the catalog is read at start-up and does not change while deployed. */
    private volatile List<Tool> processTools;

    /** {@code api}: the REST API's absolute base, for links. Both eras get the same tools, schemas and answers. */
    JsonObject answer(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api) {
        boolean modern = era instanceof ProtocolVersions.Modern;
        try {
            JsonObject reply = switch (call.method()) {
                case "server/discover" -> JsonRpc.result(call.id(), discover());
                case "initialize" -> modern ? notFound(call) : JsonRpc.result(call.id(), initialize(call.params()));
                case "ping" -> modern ? notFound(call) : JsonRpc.result(call.id(), JsonValue.EMPTY_JSON_OBJECT); // 2026-07-28 removed ping
                case "tools/list" -> JsonRpc.result(call.id(), list(caller, processTools(), mounted, modern));
                case "tools/call" -> callTool(caller, call, api, era);
                case "tasks/get", "tasks/update", "tasks/cancel" -> !modern ? notFound(call)
                        : Declared.of(era).tasks() ? taskMethods.answer(caller, call, Declared.of(era), api) : tasksUndeclared(call);
                default -> notFound(call);
            };
            return modern ? ModernResults.stamp(reply) : reply;
        } catch (RuntimeException e) { // a bug: logged by class and frame, never by message (it may quote a payload)
            String incident = StructuredLog.incident(LOG, "unexpected failure in an MCP call", Map.of("method", call.method()), e);
            return JsonRpc.error(call.id(), JsonRpc.INTERNAL_ERROR, "internal error, incident " + incident);
        }
    }

    /** The extension's rule for its methods from a client that did not declare it on this request: -32021, naming it. */
    private static JsonObject tasksUndeclared(JsonRpc.Call call) {
        return JsonRpc.error(call.id(), JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY, "Missing required client capability",
                JSON.createObjectBuilder().add("requiredCapabilities", JSON.createObjectBuilder().add("extensions",
                        JSON.createObjectBuilder().add(Declared.TASKS, JsonValue.EMPTY_JSON_OBJECT))).build());
    }

    private static JsonObject notFound(JsonRpc.Call call) {
        return JsonRpc.error(call.id(), JsonRpc.METHOD_NOT_FOUND, "method not found: this server has no method of that name"); // never repeated: a client may have put anything there
    }

    static JsonObject initialize(JsonObject params) {
        return JSON.createObjectBuilder()
                .add("protocolVersion", ProtocolVersions.negotiate(params))
                .add("capabilities", JSON.createObjectBuilder().add("tools", JSON.createObjectBuilder().add("listChanged", false)))
                .add("serverInfo", SERVER_INFO)
                .add("instructions", INSTRUCTIONS)
                .build();
    }

    /** {@code server/discover} (2026-07-28): every revision spoken, the same capabilities, and who this is. */
    static JsonObject discover() {
        return JSON.createObjectBuilder()
                .add("supportedVersions", JSON.createArrayBuilder(ProtocolVersions.SUPPORTED))
                .add("capabilities", JSON.createObjectBuilder().add("tools", JSON.createObjectBuilder().add("listChanged", false))
                        .add("extensions", JSON.createObjectBuilder().add(Declared.TASKS, JsonValue.EMPTY_JSON_OBJECT)))
                .add("instructions", INSTRUCTIONS)
                .add("ttlMs", ModernResults.DISCOVER_TTL.toMillis())
                .add("cacheScope", "public")
                .build();
    }

    /**
     * The tools {@code caller} may call. Modern: cacheable (SEP-2549) for a short while, privately — which tools a
     * token sees depends on its roles, so a shared cache must not hand one principal's list to another.
     */
    static JsonObject list(Caller caller, List<Tool> processTools, boolean modern) {
        return list(caller, processTools, List.of(), modern);
    }

    static JsonObject list(Caller caller, List<Tool> processTools, List<MountedTool> mounted, boolean modern) {
        JsonArrayBuilder tools = JSON.createArrayBuilder();
        ToolCatalog.visibleTo(caller).forEach(t -> tools.add(t.definition()));
        processTools.stream().filter(t -> t.callableBy(caller)).forEach(t -> tools.add(t.definition()));
        mounted.forEach(t -> tools.add(t.definition()));
        JsonObjectBuilder list = JSON.createObjectBuilder().add("tools", tools);
        return (modern ? list.add("ttlMs", ModernResults.LIST_TTL.toMillis()).add("cacheScope", "private") : list).build();
    }

    private List<Tool> processTools() {
        List<Tool> tools = processTools;
        if (tools == null) {
            tools = ToolCatalog.processes(processCatalog.types());
            processTools = tools;
        }
        return tools;
    }

    private JsonObject callTool(Caller caller, JsonRpc.Call call, String api, ProtocolVersions.Era era) {
        if (!(call.params().get("name") instanceof JsonString name)) {
            return JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, "params.name must name a tool");
        }
        Declared declared = Declared.of(era);
        // a tool this principal may not call is one it was never shown: the same answer as an unknown name, which
        // stays a protocol error (2025-11-25 keeps it one); only a known tool's arguments are answered as its result
        Optional<Tool> tool = ToolCatalog.find(name.getString())
                .or(() -> processTools().stream().filter(t -> t.name().equals(name.getString())).findFirst())
                .filter(t -> t.callableBy(caller));
        if (tool.isEmpty()) { // a mounted tool never stands in for one of the product's
            return mounted.stream().filter(t -> t.name().equals(name.getString())).findFirst().map(t -> t.reply(caller, call, era, api))
                    .orElseGet(() -> JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS,
                            "unknown tool: params.name names no tool you may call (tools/list lists them)"));
        }
        Optional<String> stale = call.params().containsKey("requestState") ? rounds.refusal(caller, call.params()) : Optional.empty();
        if (stale.isPresent()) { // attacker-controlled input that failed verification: refused, never acted on
            return JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, stale.get());
        }
        JsonValue arguments = call.params().getOrDefault("arguments", JsonValue.EMPTY_JSON_OBJECT);
        return JsonRpc.result(call.id(), calls.call(caller, tool.get(), arguments, api, JsonRpc.idText(call.id()), declared));
    }
}
