package dev.toolgate.it.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.McpHttp;
import dev.toolgate.it.support.MicroSuite;
import dev.toolgate.it.support.TestStack;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Every bad input to {@code /mcp} and what it gets (docs/mcp.md): a JSON-RPC error for what is wrong with the
 * message or the tool's name; an error result with the REST problem type for what is wrong with a known tool's
 * arguments (SEP-1303), so the model reads it; HTTP refusals at the edge — never a 500, nothing stored or sent.
 */
class McpBadInputIT extends MicroSuite {

    private static final String KEY = "test:invoice.create:mcp-bad-" + UUID.randomUUID() + ":v1";
    private static final String CARD = "4111111111111111";

    private McpHttp mcp() {
        return new McpHttp(baseUrl(), "agent-a");
    }

    private static JsonObject args(String amount) {
        return Json.createReader(new java.io.StringReader("{\"idempotency_key\":\"" + KEY + "\",\"order_id\":\"o-bad\","
                + "\"currency\":\"RUB\",\"amount_minor\":" + amount + "}")).readObject();
    }

    /** One row: what is sent, the HTTP status, and the JSON-RPC error code (0: a result) or problem type it gets. */
    private record Row(String name, HttpRequest.Builder request, int status, String expected) {
    }

    @Test
    void answersEveryBadInputWithItsDocumentedErrorAndStoresNothing() {
        McpHttp mcp = mcp();
        String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":";
        List<Row> table = List.of(
                new Row("not JSON", mcp.post("{\"jsonrpc\":"), 400, "-32700"),
                new Row("not UTF-8", mcp.post(new byte[]{'{', (byte) 0xC3, '}'}), 400, "-32700"),
                new Row("duplicate member", mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}"), 400, "-32700"),
                new Row("a batch", mcp.post("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]"), 400, "-32600"),
                new Row("no jsonrpc", mcp.post("{\"id\":1,\"method\":\"ping\"}"), 400, "-32600"),
                new Row("no method", mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1}"), 400, "-32600"),
                new Row("null id", mcp.post("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}"), 400, "-32600"),
                new Row("params an array", mcp.post(call + "[]}"), 400, "-32602"),
                new Row("unknown method", mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/cal\"}"), 200, "-32601"),
                new Row("no tool name", mcp.post(call + "{}}"), 200, "-32602"),
                new Row("unknown tool", mcp.post(McpHttp.toolCall(1, "invoice_delete", args("1"))), 200, "-32602"),
                new Row("arguments an array", mcp.post(call + "{\"name\":\"invoice_create\",\"arguments\":[]}}"), 200, "invalid-request"),
                new Row("no key", mcp.post(call + "{\"name\":\"invoice_create\",\"arguments\":{\"order_id\":\"o\",\"amount_minor\":1,\"currency\":\"RUB\"}}}"), 200, "idempotency-key-missing"),
                new Row("amount a string", mcp.post(McpHttp.toolCall(1, "invoice_create", args("\"100\""))), 200, "invalid-payload"),
                new Row("unknown argument", mcp.post(McpHttp.toolCall(1, "invoice_create",
                        Json.createObjectBuilder(args("1")).add("colour", "red").build())), 200, "invalid-payload"),
                new Row("no amount", mcp.post(McpHttp.toolCall(1, "invoice_create",
                        Json.createObjectBuilder(args("1")).remove("amount_minor").build())), 200, "invalid-payload"),
                new Row("key a number", mcp.post(McpHttp.toolCall(1, "get_operation",
                        Json.createObjectBuilder().add("idempotency_key", 42).build())), 200, "idempotency-key-invalid"),
                new Row("an argument to resume", mcp.post(McpHttp.toolCall(1, "resume_operation",
                        Json.createObjectBuilder().add("idempotency_key", KEY).add("amount_minor", 1).build())), 200,
                        "resume-takes-no-parameters"),
                new Row("amount negative", mcp.post(McpHttp.toolCall(1, "invoice_create", args("-5"))), 200, "invalid-payload"),
                new Row("amount a fraction", mcp.post(McpHttp.toolCall(1, "invoice_create", args("12.5"))), 200, "invalid-payload"),
                new Row("currency unknown", mcp.post(McpHttp.toolCall(1, "invoice_create",
                        Json.createObjectBuilder(args("1")).add("currency", "XYZ").build())), 200, "invalid-payload"),
                new Row("card number", mcp.post(McpHttp.toolCall(1, "invoice_create",
                        Json.createObjectBuilder(args("1")).add("order_id", CARD).build())), 200, "card-number-rejected"),
                new Row("key with a space", mcp.post(McpHttp.toolCall(1, "invoice_create",
                        Json.createObjectBuilder(args("1")).add("idempotency_key", "a b").build())), 200, "idempotency-key-invalid"),
                new Row("no such operation", mcp.post(McpHttp.toolCall(1, "get_operation",
                        Json.createObjectBuilder().add("idempotency_key", KEY).build())), 200, "operation-not-found"),
                new Row("unsupported protocol version", mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                        .header("MCP-Protocol-Version", "1999-01-01"), 400, "-32022"),
                new Row("modern body, legacy header", mcp.modern(1, "tools/list", Json.createObjectBuilder().build())
                        .setHeader("MCP-Protocol-Version", "2025-11-25"), 400, "-32020"),
                new Row("modern, Mcp-Method another", mcp.modern(1, "tools/list", Json.createObjectBuilder().build())
                        .setHeader("Mcp-Method", "tools/call"), 400, "-32020"),
                new Row("modern, Mcp-Name another", mcp.modern(1, "tools/call", McpHttp.toolParams("invoice_create", args("1")))
                        .setHeader("Mcp-Name", "invoice_post"), 400, "-32020"),
                new Row("modern, key header another", mcp.modern(1, "tools/call", McpHttp.toolParams("invoice_create", args("1")))
                        .setHeader("Mcp-Param-Idempotency-Key", KEY + "-other"), 400, "-32020"),
                new Row("legacy, key header another", mcp.post(McpHttp.toolCall(1, "invoice_create", args("1")))
                        .header("Mcp-Param-Idempotency-Key", KEY + "-other"), 400, "-32020"),
                new Row("modern header, no envelope", mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")
                        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/list"), 400, "-32602"),
                new Row("modern, unknown method", mcp.modern(1, "tools/cal", Json.createObjectBuilder().build()), 404, "-32601"),
                new Row("modern, ping (removed in 2026-07-28)", mcp.modern(1, "ping", Json.createObjectBuilder().build()), 404, "-32601"),
                new Row("too large", mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"" + "a".repeat(70_000) + "\"}}"), 413, ""),
                new Row("foreign Origin", mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").header("Origin", "https://evil.example"), 403, ""),
                new Row("GET", mcp.request("/mcp").header("Authorization", "Bearer x").GET(), 405, ""),
                new Row("a notification", mcp.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), 202, ""));

        List<String> wrong = new ArrayList<>();
        for (Row row : table) {
            HttpResponse<String> answer = McpHttp.send(row.request());
            String got = answer.statusCode() + " " + (row.expected().isEmpty() ? "" : what(answer));
            if (!got.equals(row.status() + " " + row.expected())) {
                wrong.add(row.name() + ": expected " + row.status() + " " + row.expected() + ", got " + got + " " + answer.body());
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertEquals(404, agent().find(KEY).status(), "nothing stored");
        assertEquals(0, oneC.creates("1c", Agent.downstream(KEY)), "nothing sent");
    }

    /** The JSON-RPC error code, or the problem type's last segment of an error result. */
    private static String what(HttpResponse<String> answer) {
        JsonObject body = McpHttp.json(answer);
        if (body.containsKey("error")) {
            return Integer.toString(body.getJsonObject("error").getInt("code"));
        }
        JsonObject result = body.getJsonObject("result");
        String type = result.getJsonObject("structuredContent").getJsonObject("problem").getString("type");
        return (result.getBoolean("isError") ? "" : "not-an-error:") + type.substring(type.lastIndexOf('/') + 1);
    }

    @Test
    void answersAnonymousCallsWith401PointingAtTheResourceMetadata() {
        HttpResponse<String> anonymous = McpHttp.send(mcp().request("/mcp").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")));
        assertEquals(401, anonymous.statusCode());
        String challenge = anonymous.headers().firstValue("WWW-Authenticate").orElse("");
        String metadata = baseUrl() + "/.well-known/oauth-protected-resource/mcp";
        assertEquals("Bearer resource_metadata=\"" + metadata + "\"", challenge);

        HttpResponse<String> document = McpHttp.send(mcp().request("/.well-known/oauth-protected-resource/mcp").GET());
        assertEquals(200, document.statusCode(), document.body());
        assertEquals(baseUrl() + "/mcp", McpHttp.json(document).getString("resource"));
        assertEquals(0, McpHttp.json(document).getJsonArray("authorization_servers").size(), "none unless configured");
    }

    @Test
    void echoesASupportedRevisionAndAnswersAnotherWithItsLatest() {
        assertEquals("2025-06-18", negotiated("2025-06-18"));
        assertEquals("2025-11-25", negotiated("2025-03-26"), "it required batches, which are refused here");
        assertEquals("2025-11-25", negotiated("2099-01-01"));
    }

    private String negotiated(String version) {
        HttpResponse<String> answer = McpHttp.send(mcp().post("{\"jsonrpc\":\"2.0\",\"id\":\"i\",\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"" + version + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"0\"}}}"));
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        assertTrue(answer.headers().firstValue("Mcp-Session-Id").isEmpty(), "stateless: no session");
        return McpHttp.json(answer).getJsonObject("result").getString("protocolVersion");
    }

    private static final JsonObject TASKS = Json.createObjectBuilder()
            .add("extensions", Json.createObjectBuilder().add("io.modelcontextprotocol/tasks", Json.createObjectBuilder())).build();

    private static JsonObject task(String taskId) {
        return Json.createObjectBuilder().add("taskId", taskId).add("inputResponses", Json.createObjectBuilder()).build();
    }

    /** The row's status and what it got ({@link #what}), or, for an HTTP refusal with a body that is not JSON, its type. */
    private static String got(HttpResponse<String> answer) {
        boolean json = answer.headers().firstValue("Content-Type").orElse("").contains("json") && answer.body().startsWith("{");
        return answer.statusCode() + " " + (json && McpHttp.json(answer).containsKey("jsonrpc") ? what(answer) : "");
    }

    @Test
    void refusesATaskIdOrARequestStateKeyNoDoorTakesAsInvalidParamsBeforeTheJournal() {
        McpHttp mcp = mcp();
        List<String> wrong = new ArrayList<>();
        for (String method : List.of("tasks/get", "tasks/update", "tasks/cancel")) {
            for (String taskId : List.of("operation:" + KEY + "\u0000", "process:" + KEY + "\u0001", "operation:t:pay:" + CARD + ":v1",
                    "operation:" + "k".repeat(256))) {
                HttpResponse<String> answer = McpHttp.send(mcp.modern(1, method, task(taskId), TASKS));
                if (!got(answer).equals("200 -32602") || answer.body().contains("4111") || answer.body().contains("incident")) {
                    wrong.add(method + " " + taskId.length() + ": " + answer.statusCode() + " " + answer.body());
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void answersAnUpdateFromAPrincipalThatMayNotReadTasksAlikeForAnExistingAndAnUnknownKey() {
        String existing = "test:invoice.create:mcp-bad-task-" + UUID.randomUUID() + ":v1";
        assertEquals(201, agent().submit(existing, Agent.invoice("o-bad-task", 100)).status());
        McpHttp admin = McpHttp.withToken(baseUrl(), TestStack.adminToken());
        HttpResponse<String> known = McpHttp.send(admin.modern(1, "tasks/update", task("operation:" + existing), TASKS));
        HttpResponse<String> unknown = McpHttp.send(admin.modern(1, "tasks/update", task("operation:" + existing + "-none"), TASKS));
        assertEquals(unknown.statusCode() + " " + unknown.body(), known.statusCode() + " " + known.body());
        assertEquals("200 -32602", got(known));
    }

    @Test
    void refusesAMirroredHeaderSentTwice() {
        McpHttp mcp = mcp();
        JsonObject params = McpHttp.toolParams("invoice_create", args("1"));
        List<String> wrong = new ArrayList<>();
        for (String[] second : List.of(new String[] {"Mcp-Param-Idempotency-Key", KEY + "-other"},
                new String[] {"Mcp-Param-Idempotency-Key", KEY}, new String[] {"MCP-Protocol-Version", "2025-11-25"},
                new String[] {"Mcp-Method", "tools/list"}, new String[] {"Mcp-Name", "invoice_post"})) {
            HttpResponse<String> answer = McpHttp.send(mcp.modern(1, "tools/call", params).header(second[0], second[1]));
            if (!got(answer).equals("400 -32020")) {
                wrong.add(second[0] + ": " + answer.statusCode() + " " + answer.body());
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertEquals(404, agent().find(KEY).status(), "nothing stored");
    }

    @Test
    void neverRepeatsTheValueOrTheNameItRefuses() {
        McpHttp mcp = mcp();
        String claim = "4111 1111 1111 1111";
        HttpResponse<String> version = McpHttp.send(mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"" + claim + "\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}")
                .header("MCP-Protocol-Version", "2026-07-28"));
        assertEquals("400 -32020", got(version), version.body());
        HttpResponse<String> header = McpHttp.send(mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                .header("x-4111-1111-1111-1111", "a".repeat(4200)));
        assertEquals("400 -32600", got(header), header.body());
        HttpResponse<String> method = McpHttp.send(mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + claim + "\"}"));
        assertEquals("200 -32601", got(method), method.body());
        for (HttpResponse<String> answer : List.of(version, header, method)) {
            assertFalse(answer.body().contains("4111"), answer.body());
        }
        HttpResponse<String> origin = McpHttp.send(mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                .header("Origin", "https://evil-origin-7351.example"));
        assertEquals(403, origin.statusCode(), origin.body());
        assertFalse(origin.body().contains("evil-origin"), origin.body());
    }

    @Test
    void refusesACardNumberWithHexLettersGluedOnAsAKey() {
        String glued = "t:pay:4111111111111111abcd:v1";
        HttpResponse<String> answer = McpHttp.send(mcp().post(McpHttp.toolCall(1, "invoice_create",
                Json.createObjectBuilder(args("1")).add("idempotency_key", glued).build())));
        assertEquals("200 card-number-rejected", got(answer), answer.body());
        assertEquals(422, agent().submit(glued, Agent.invoice("o-glued", 100)).status(), "and over REST");
    }

    @Test
    void answersAMethodNoDoorServesWith405AndAllow() {
        McpHttp mcp = mcp();
        List<String> wrong = new ArrayList<>();
        for (String method : List.of("PATCH", "PROPFIND")) {
            List<HttpResponse<String>> answers = new ArrayList<>();
            for (String path : List.of("/mcp", "/", "/.well-known/oauth-protected-resource/mcp", "/console/signed-out")) {
                answers.add(McpHttp.send(mcp.request(path).header("Authorization", "Bearer x").method(method, HttpRequest.BodyPublishers.noBody())));
            }
            answers.add(agent().send(agent().operations().method(method, HttpRequest.BodyPublishers.noBody())).response()); // past the API's token check
            for (HttpResponse<String> answer : answers) {
                if (answer.statusCode() != 405 || answer.headers().firstValue("Allow").isEmpty()) {
                    wrong.add(method + " " + answer.uri().getPath() + ": " + answer.statusCode() + " " + answer.headers().map());
                }
            }
        }
        HttpResponse<String> get = McpHttp.send(mcp.request("/mcp").GET());
        assertEquals("405 POST, OPTIONS", get.statusCode() + " " + get.headers().firstValue("Allow").orElse(""));
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void answersARefusalInTheFormOfTheDoorTheContainerRoutesTo() {
        HttpResponse<String> mcp = McpHttp.send(mcp().request("/mcp;x=y?q=%00").GET());
        assertEquals("400 -32600", got(mcp), mcp.body());
        HttpResponse<String> console = McpHttp.send(mcp().request("//console/signed-out?q=%00").GET());
        assertEquals(400, console.statusCode(), console.body());
        assertTrue(console.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), console.headers().map().toString());
    }
}
