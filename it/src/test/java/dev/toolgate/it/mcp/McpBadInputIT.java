package dev.toolgate.it.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.McpHttp;
import dev.toolgate.it.support.MicroSuite;
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
}
