package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.gateway.ReplayWindow;
import dev.toolgate.journal.JournalSettings;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import dev.toolgate.process.ProcessCatalog;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;

class McpMethodsTest {

    @Test
    void initializesWithTheNegotiatedRevisionAndOnlyTheToolsCapability() {
        JsonObject result = McpMethods.initialize(JSON.createObjectBuilder().add("protocolVersion", "2025-06-18").build());
        assertEquals("2025-06-18", result.getString("protocolVersion"));
        assertEquals(Set.of("tools"), result.getJsonObject("capabilities").keySet());
        assertFalse(result.getJsonObject("capabilities").getJsonObject("tools").getBoolean("listChanged"));
        assertEquals("toolgate", result.getJsonObject("serverInfo").getString("name"));
    }

    @Test
    void listsOnlyTheToolsThePrincipalMayCall() {
        JsonObject listed = McpMethods.list(new Caller("auditor", "acme", Set.of(Role.AUDITOR)), List.of(), false);
        assertEquals(3, listed.getJsonArray("tools").size(), "get_operation, list_open_operations, get_process");
    }

    private static final Caller AGENT = new Caller("agent-a", "acme", Set.of(Role.AGENT));

    /** {@code tools/call} with these params; no gateway or journal behind it, so nothing here reaches either. */
    private static JsonObject toolsCall(Caller caller, String params) {
        return answer(caller, "tools/call", params, new ProtocolVersions.Legacy());
    }

    private static JsonObject answer(Caller caller, String method, String params, ProtocolVersions.Era era) {
        McpMethods methods = new McpMethods();
        methods.calls = new ToolCalls();
        methods.calls.replays = new ReplayWindow(new JournalSettings());
        methods.processCatalog = new ProcessCatalog(); // built empty: no process types, as with toolgate.process.examples=false
        JsonRpc.Call call = new JsonRpc.Call(JSON.createValue(7), method, IJsonReader.read(params).asJsonObject());
        return methods.answer(caller, call, era, "http://gw/api");
    }

    @Test
    void keepsAnUnknownToolAProtocolError() {
        JsonObject answer = toolsCall(AGENT, "{\"name\":\"invoice_delete\",\"arguments\":{}}");
        assertEquals(JsonRpc.INVALID_PARAMS, answer.getJsonObject("error").getInt("code"));
        assertTrue(answer.getJsonObject("error").getString("message").startsWith("unknown tool"));
    }

    @Test
    void keepsAToolThePrincipalMayNotCallAProtocolErrorLikeAnUnknownOne() {
        JsonObject answer = toolsCall(new Caller("op", "acme", Set.of(Role.OPERATOR)), "{\"name\":\"invoice_create\",\"arguments\":[]}");
        assertEquals(JsonRpc.INVALID_PARAMS, answer.getJsonObject("error").getInt("code"));
    }

    @Test
    void keepsAMissingOrNonStringToolNameAProtocolError() {
        assertEquals(JsonRpc.INVALID_PARAMS, toolsCall(AGENT, "{}").getJsonObject("error").getInt("code"));
        assertEquals(JsonRpc.INVALID_PARAMS, toolsCall(AGENT, "{\"name\":7}").getJsonObject("error").getInt("code"));
    }

    @Test
    void answersAKnownToolsBadArgumentsWithAnErrorResultUnderTheRequestsId() {
        JsonObject answer = toolsCall(AGENT, "{\"name\":\"invoice_create\",\"arguments\":{\"order_id\":\"o\"}}");
        assertFalse(answer.containsKey("error"), answer.toString());
        assertEquals(JSON.createValue(7), answer.get("id"));
        assertTrue(answer.getJsonObject("result").getBoolean("isError"));
        assertEquals(JsonValue.ValueType.OBJECT, answer.getJsonObject("result").get("structuredContent").getValueType());
    }

    private static final ProtocolVersions.Era MODERN = new ProtocolVersions.Modern("2026-07-28", JsonValue.EMPTY_JSON_OBJECT);

    @Test
    void discoversEveryRevisionItSpeaksNewestFirstWithWhoAnswers() {
        JsonObject result = answer(AGENT, "server/discover", "{}", MODERN).getJsonObject("result");
        assertEquals(List.of("2026-07-28", "2025-11-25", "2025-06-18"), result.getJsonArray("supportedVersions").getValuesAs(
                jakarta.json.JsonString::getString));
        assertEquals("complete", result.getString("resultType"));
        assertEquals("toolgate", result.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo").getString("name"));
        assertTrue(result.getJsonObject("capabilities").containsKey("tools"));
        assertEquals("public", result.getString("cacheScope"));
    }

    @Test
    void listsToolsForAModernClientAsAPrivatelyCacheableResult() {
        JsonObject result = answer(AGENT, "tools/list", "{}", MODERN).getJsonObject("result");
        assertEquals("private", result.getString("cacheScope"), "which tools a token sees depends on its roles");
        assertEquals(60_000, result.getInt("ttlMs"));
        assertEquals("complete", result.getString("resultType"));
        assertEquals(legacyTools(), result.getJsonArray("tools"), "the same tools and schemas in both eras");
    }

    private static jakarta.json.JsonArray legacyTools() {
        return answer(AGENT, "tools/list", "{}", new ProtocolVersions.Legacy()).getJsonObject("result").getJsonArray("tools");
    }

    @Test
    void declaresEveryToolsKeyForMirroringIntoAHeader() {
        legacyTools().getValuesAs(JsonObject.class).stream().filter(t -> !"list_open_operations".equals(t.getString("name")))
                .forEach(t -> assertEquals("Idempotency-Key", t.getJsonObject("inputSchema").getJsonObject("properties")
                        .getJsonObject("idempotency_key").getString("x-mcp-header"), t.getString("name")));
    }

    @Test
    void leavesPingAndInitializeToTheLegacyEra() {
        assertEquals(JsonRpc.METHOD_NOT_FOUND, JsonRpc.errorCode(answer(AGENT, "ping", "{}", MODERN)));
        assertEquals(JsonRpc.METHOD_NOT_FOUND, JsonRpc.errorCode(answer(AGENT, "initialize", "{}", MODERN)));
        assertEquals(0, JsonRpc.errorCode(answer(AGENT, "ping", "{}", new ProtocolVersions.Legacy())));
    }

    @Test
    void keepsALegacyResultWithoutResultType() {
        assertFalse(answer(AGENT, "tools/list", "{}", new ProtocolVersions.Legacy()).getJsonObject("result").containsKey("resultType"));
    }

    @Test
    void advertisesTheTasksExtensionInDiscovery() {
        JsonObject capabilities = answer(AGENT, "server/discover", "{}", MODERN).getJsonObject("result").getJsonObject("capabilities");
        assertTrue(capabilities.getJsonObject("extensions").containsKey("io.modelcontextprotocol/tasks"));
    }

    @Test
    void leavesTheTasksMethodsToTheModernEra() {
        assertEquals(JsonRpc.METHOD_NOT_FOUND, JsonRpc.errorCode(answer(AGENT, "tasks/get", "{\"taskId\":\"operation:k\"}",
                new ProtocolVersions.Legacy())), "2025-11-25's experimental tasks had other shapes; they are not served");
    }

    @Test
    void answersTheTasksMethodsOfAClientThatDidNotDeclareTheExtensionWithMissingCapability() {
        JsonObject answer = answer(AGENT, "tasks/get", "{\"taskId\":\"operation:k\"}", MODERN);
        assertEquals(JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY, JsonRpc.errorCode(answer));
        assertTrue(answer.getJsonObject("error").getJsonObject("data").getJsonObject("requiredCapabilities").getJsonObject("extensions")
                .containsKey("io.modelcontextprotocol/tasks"));
    }

    private static final ProtocolVersions.Era TASKS = new ProtocolVersions.Modern("2026-07-28", JSON.createObjectBuilder()
            .add("extensions", JSON.createObjectBuilder().add("io.modelcontextprotocol/tasks", JsonValue.EMPTY_JSON_OBJECT)).build());

    @Test
    void refusesATasksRequestWithoutATaskId() {
        McpMethods methods = new McpMethods();
        methods.taskMethods = new TaskMethods();
        JsonRpc.Call call = new JsonRpc.Call(JSON.createValue(7), "tasks/get", JsonValue.EMPTY_JSON_OBJECT);
        assertEquals(JsonRpc.INVALID_PARAMS, JsonRpc.errorCode(methods.answer(AGENT, call, TASKS, "http://gw/api")));
    }

    @Test
    void refusesAValidRequestStateBesideAKeyNoDoorTakesBeforeTheJournal() {
        byte[] secret = new byte[ApprovalRounds.MIN_SECRET_BYTES];
        McpMethods methods = new McpMethods();
        methods.calls = new ToolCalls();
        methods.calls.replays = new ReplayWindow(new JournalSettings());
        methods.processCatalog = new ProcessCatalog();
        methods.rounds = new ApprovalRounds(); // no journal behind it: a key that reached one would fail, not be answered
        methods.rounds.configuredSecret = Optional.of(java.util.Base64.getEncoder().encodeToString(secret));
        String key = "t:payment.create:o-1:v1\u0000";
        String state = RequestStates.issue(secret, new RequestStates.Claims("agent-a", "t:payment.create:o-1:v1\u0000", "f".repeat(64), 0,
                java.time.Instant.now().plusSeconds(60)));
        JsonRpc.Call call = new JsonRpc.Call(JSON.createValue(7), "tools/call", JSON.createObjectBuilder().add("name", "get_operation")
                .add("arguments", JSON.createObjectBuilder().add("idempotency_key", key)).add("requestState", state).build());
        assertEquals(JsonRpc.INVALID_PARAMS, JsonRpc.errorCode(methods.answer(AGENT, call, TASKS, "http://gw/api")));
    }

    @Test
    void neverRepeatsAnUnknownMethodOrToolName() {
        String card = "x-4111-1111-1111-1111";
        JsonObject method = answer(AGENT, card, "{}", new ProtocolVersions.Legacy());
        assertEquals(JsonRpc.METHOD_NOT_FOUND, JsonRpc.errorCode(method));
        assertFalse(method.toString().contains("4111"), method.toString());
        JsonObject tool = toolsCall(AGENT, "{\"name\":\"" + card + "\",\"arguments\":{}}");
        assertEquals(JsonRpc.INVALID_PARAMS, JsonRpc.errorCode(tool));
        assertFalse(tool.toString().contains("4111"), tool.toString());
    }

    /** A tool a test deployment mounts: it echoes who called it in which era. */
    private static final MountedTool ECHO = new MountedTool() {
        @Override
        public JsonObject definition() {
            return JSON.createObjectBuilder().add("name", "echo").add("inputSchema", JSON.createObjectBuilder().add("type", "object")).build();
        }

        @Override
        public JsonObject reply(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api) {
            return JsonRpc.result(call.id(), JSON.createObjectBuilder().add("caller", caller.principalId())
                    .add("modern", era instanceof ProtocolVersions.Modern).build());
        }
    };

    @Test
    void listsAndCallsAMountedToolAfterTheProductsOwn() {
        McpMethods methods = new McpMethods();
        methods.calls = new ToolCalls();
        methods.processCatalog = new ProcessCatalog();
        methods.mounted = List.of(ECHO);
        JsonObject list = methods.answer(AGENT, new JsonRpc.Call(JSON.createValue(1), "tools/list", JsonValue.EMPTY_JSON_OBJECT),
                new ProtocolVersions.Legacy(), "http://gw/api");
        List<String> names = list.getJsonObject("result").getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .map(t -> t.getString("name")).toList();
        assertEquals("echo", names.get(names.size() - 1));
        assertEquals(ToolCatalog.visibleTo(AGENT).size() + 1, names.size());
        JsonObject called = methods.answer(AGENT, new JsonRpc.Call(JSON.createValue(2), "tools/call",
                JSON.createObjectBuilder().add("name", "echo").build()), new ProtocolVersions.Legacy(), "http://gw/api");
        assertEquals("agent-a", called.getJsonObject("result").getString("caller"));
    }

    @Test
    void mountsNothingUnlessADeploymentAddsIt() {
        JsonObject answer = toolsCall(AGENT, "{\"name\":\"greet\",\"arguments\":{}}");
        assertEquals(JsonRpc.INVALID_PARAMS, JsonRpc.errorCode(answer));
        assertTrue(answer.getJsonObject("error").getString("message").startsWith("unknown tool"), answer.toString());
    }
}
