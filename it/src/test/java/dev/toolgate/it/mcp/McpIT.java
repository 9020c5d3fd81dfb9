package dev.toolgate.it.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.ApprovalSuite;
import dev.toolgate.it.support.McpHttp;
import dev.toolgate.it.support.McpSdk;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

/**
 * What an agent host gets from {@code /mcp} with the official TypeScript SDK client: the catalog as tools,
 * and each of the gateway's guarantees through {@code tools/call}, counted at the simulated targets.
 */
class McpIT extends ApprovalSuite {

    static JsonObject invoice(String key, String orderId, long amountMinor) {
        return Json.createObjectBuilder().add("idempotency_key", key).add("order_id", orderId)
                .add("amount_minor", amountMinor).add("currency", "RUB").build();
    }

    private static String invoiceKey(String intent) {
        return "test:invoice.create:" + intent + "-" + UUID.randomUUID() + ":v1";
    }

    private static JsonObject structured(JsonValue result) {
        return result.asJsonObject().getJsonObject("structuredContent");
    }

    private McpSdk sdk(String principal) {
        return new McpSdk(baseUrl(), principal);
    }

    @Test
    void startsAProcessAsOneToolCallAndFollowsItUpWithTheSameKey() {
        String key = "test:process:mcp-" + UUID.randomUUID().toString().substring(0, 8) + ":v1";
        JsonObject order = Json.createObjectBuilder().add("idempotency_key", key).add("order_id", "order-mcp-process")
                .add("amount_minor", 8800).add("currency", "RUB").build();
        JsonArray results = sdk("agent-a").call("process_order_fulfil", order).call("process_order_fulfil", order)
                .call("get_process", Json.createObjectBuilder().add("idempotency_key", key).build())
                .call("process_order_fulfil", Json.createObjectBuilder(order).add("amount_minor", 8801).build()).results();
        JsonObject first = structured(results.get(0));
        assertEquals("process", first.getString("outcome"), first.toString());
        assertFalse(results.get(0).asJsonObject().getBoolean("isError"));
        JsonObject process = first.getJsonObject("process");
        assertEquals("awaiting_approval", process.getString("status"), "invoice, posting and deal done; the payment waits for a person");
        assertEquals(key + "/payment", process.getString("waiting_on"));
        assertTrue(first.getInt("retry_after_seconds") >= 1);
        assertTrue(first.getString("detail").contains("Do not make a new key"), first.getString("detail"));
        assertEquals(1, oneC.effects("1c", Agent.downstream(key + "/invoice")).size());
        JsonObject again = structured(results.get(1));
        assertEquals("awaiting_approval", again.getJsonObject("process").getString("status"), "the same process, not a second one");
        assertEquals(1, oneC.effects("1c", Agent.downstream(key + "/invoice")).size(), "two calls, one invoice");
        assertEquals("record", structured(results.get(2)).getString("outcome"));
        assertEquals(4, structured(results.get(2)).getJsonObject("process").getJsonArray("steps").size());
        JsonObject changed = structured(results.get(3));
        assertTrue(results.get(3).asJsonObject().getBoolean("isError"));
        assertTrue(changed.getJsonObject("problem").getString("type").endsWith("/idempotency-key-reused"), changed.toString());
    }

    @Test
    void listsTheCatalogAsToolsWithSchemasAndAnnotations() {
        JsonObject run = sdk("agent-a").list().run();
        assertEquals("2025-11-25", run.getString("protocolVersion"), "the SDK's own revision, echoed");
        assertEquals("legacy", run.getString("era"), "the v1 SDK knows only the initialize handshake");
        JsonArray tools = run.getJsonArray("steps").getJsonObject(0).getJsonArray("tools");
        List<String> names = tools.getValuesAs(JsonObject.class).stream().map(t -> t.getString("name")).toList();
        assertEquals(List.of("crm_deal_create", "crm_deal_lose", "invoice_cancel", "invoice_create", "invoice_post",
                "payment_create", "payment_refund", "get_operation", "list_open_operations", "resume_operation", "get_process",
                "resume_process", "process_order_fulfil", "process_order_prepay"), names);
        JsonObject invoice = tools.getJsonObject(names.indexOf("invoice_create"));
        JsonObject schema = invoice.getJsonObject("inputSchema");
        assertEquals("integer", schema.getJsonObject("properties").getJsonObject("amount_minor").getString("type"));
        assertTrue(schema.getJsonArray("required").contains(Json.createValue("idempotency_key")));
        assertTrue(invoice.getString("description").contains("<contour>:invoice.create:<intent-id>:<version>"));
        assertEquals("object", invoice.getJsonObject("outputSchema").getString("type"));
        JsonObject hints = invoice.getJsonObject("annotations");
        assertTrue(hints.getBoolean("idempotentHint") && hints.getBoolean("destructiveHint") && hints.getBoolean("openWorldHint"));
    }

    @Test
    void executesTheSameCallOnceAndMarksTheSecondReplayed() {
        String key = invoiceKey("mcp-twice");
        JsonArray results = sdk("agent-a").call("invoice_create", invoice(key, "order-mcp-1", 125000))
                .call("invoice_create", invoice(key, "order-mcp-1", 125000)).results();

        JsonObject first = structured(results.get(0));
        JsonObject second = structured(results.get(1));
        assertEquals("succeeded", first.getString("outcome"), results.toString());
        assertFalse(first.getBoolean("replayed"));
        assertEquals("succeeded", second.getString("outcome"));
        assertTrue(second.getBoolean("replayed"));
        assertEquals(first.getString("target_object_id"), second.getString("target_object_id"));
        assertEquals(List.of(first.getString("target_object_id")), oneC.effects("1c", Agent.downstream(key)));
    }

    @Test
    void refusesTheSameKeyWithAnotherAmountAndSendsNothing() {
        String key = invoiceKey("mcp-changed");
        JsonArray results = sdk("agent-a").call("invoice_create", invoice(key, "order-mcp-2", 5000))
                .call("invoice_create", invoice(key, "order-mcp-2", 9000)).results();

        JsonObject changed = results.getJsonObject(1);
        assertTrue(changed.getBoolean("isError"), changed.toString());
        assertEquals("https://toolgate.dev/problems/idempotency-key-reused",
                structured(changed).getJsonObject("problem").getString("type"));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "nothing new at the target");
    }

    @Test
    void makesOneInvoiceOfTwentyConcurrentIdenticalCalls() {
        String key = invoiceKey("mcp-twenty");
        JsonArray answers = sdk("agent-a").concurrently(20, "invoice_create", invoice(key, "order-mcp-3", 7000)).results().getJsonArray(0);

        assertEquals(20, answers.size());
        long succeeded = answers.stream().filter(a -> "succeeded".equals(structured(a).getString("outcome"))).count();
        assertTrue(succeeded >= 1, answers.toString());
        answers.forEach(a -> assertTrue(List.of("succeeded", "in_progress").contains(structured(a).getString("outcome")), a.toString()));
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size(), "twenty calls, one effect");
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)));
    }

    @Test
    void clarifiesADroppedResponseThenSucceedsWithOneObject() {
        String key = invoiceKey("mcp-dropped");
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        JsonArray results = sdk("agent-a").call("invoice_create", invoice(key, "order-mcp-4", 5000))
                .call("invoice_create", invoice(key, "order-mcp-4", 5000)).results();

        JsonObject lost = results.getJsonObject(0);
        assertFalse(lost.getBoolean("isError"));
        assertEquals("clarifying", structured(lost).getString("outcome"), lost.toString());
        String text = lost.getJsonArray("content").getJsonObject(0).getString("text");
        assertTrue(text.contains("same idempotency_key") && text.contains("do not make a new key"), text);
        JsonObject settled = structured(results.get(1));
        assertEquals("succeeded", settled.getString("outcome"), results.toString());
        assertEquals(List.of(settled.getString("target_object_id")), oneC.effects("1c", Agent.downstream(key)));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "found by key, never sent again");
    }

    @Test
    void asksForApprovalWithItsLinkThenSucceedsOnceApprovedThroughRest() {
        String key = "test:payment.create:mcp-" + UUID.randomUUID() + ":v1";
        JsonObject payment = Json.createObjectBuilder().add("idempotency_key", key).add("order_id", "order-" + UUID.randomUUID())
                .add("amount_minor", 49900).add("currency", "RUB").add("description", "Заказ через MCP").build();

        JsonObject waiting = structured(sdk("agent-a").call("payment_create", payment).results().get(0));
        assertEquals("approval_required", waiting.getString("outcome"), waiting.toString());
        assertEquals("approver", waiting.getJsonObject("approval").getString("who"));
        assertTrue(waiting.getJsonObject("approval").getString("link").startsWith(baseUrl() + "/api/v1/operations?key="));
        assertEquals(0, yooKassa.creates("yookassa", Agent.downstream(key)), "nothing sent before the approval");

        approve(key);
        JsonObject paid = structured(sdk("agent-a").call("payment_create", payment).results().get(0));
        assertEquals("succeeded", paid.getString("outcome"), paid.toString());
        assertEquals(1, yooKassa.effects("yookassa", Agent.downstream(key)).size());
    }

    @Test
    void letsAReplacementAgentWithOnlyTheEvidenceToolsReadAndResumeTheRecord() {
        String key = invoiceKey("mcp-handover");
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals("clarifying", structured(sdk("agent-a").call("invoice_create", invoice(key, "order-mcp-5", 6000))
                .results().get(0)).getString("outcome"));

        JsonObject empty = Json.createObjectBuilder().build();
        JsonObject keyOnly = Json.createObjectBuilder().add("idempotency_key", key).build();
        JsonArray results = sdk("operator").list().call("list_open_operations", empty).call("get_operation", keyOnly)
                .call("resume_operation", keyOnly).call("invoice_create", invoice(key, "order-mcp-5", 6000)).results();

        List<String> tools = results.getJsonObject(0).getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .map(t -> t.getString("name")).toList();
        assertEquals(List.of("get_operation", "list_open_operations", "resume_operation", "get_process", "resume_process"), tools);
        assertTrue(structured(results.get(1)).getJsonArray("operations").getValuesAs(JsonObject.class).stream()
                .anyMatch(op -> key.equals(op.getString("operation_key"))), "the lost invoice is among the open operations");
        JsonObject record = structured(results.get(2)).getJsonObject("operation");
        assertEquals("unknown", record.getString("status"));
        assertEquals("resume", record.getJsonObject("next_action").getString("action"));
        assertEquals("order-mcp-5", record.getJsonObject("payload").getString("order_id"));
        assertTrue(record.containsKey("trace_id") && record.containsKey("events"));
        JsonObject resumed = structured(results.get(3));
        assertEquals("succeeded", resumed.getString("outcome"), resumed.toString());
        assertEquals(-32602, results.getJsonObject(4).getJsonObject("error").getInt("code"), "no submitting for this principal");
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "resumed by looking it up: one object");
    }

    @Test
    void tellsTheModelAForgottenKeyInTheToolsResultSoTheNextCallCanCarryIt() {
        String key = invoiceKey("mcp-forgotten-key");
        JsonObject withoutKey = Json.createObjectBuilder(invoice(key, "order-mcp-7", 4000)).remove("idempotency_key").build();
        JsonArray results = sdk("agent-a").list().call("invoice_create", withoutKey)
                .call("invoice_create", invoice(key, "order-mcp-7", 4000)).results();

        JsonObject refused = results.getJsonObject(1);
        assertTrue(refused.getBoolean("isError"), "a result the host hands to the model, not a thrown protocol error: " + refused);
        assertEquals("https://toolgate.dev/problems/idempotency-key-missing",
                structured(refused).getJsonObject("problem").getString("type"));
        String text = refused.getJsonArray("content").getJsonObject(0).getString("text");
        assertTrue(text.contains("idempotency_key is required"), text);
        assertEquals("succeeded", structured(results.get(2)).getString("outcome"), results.toString());
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "only the corrected call was sent");
    }

    @Test
    void takesTheTraceFromTheCallsMeta() {
        String key = invoiceKey("mcp-trace");
        String traceId = UUID.randomUUID().toString().replace("-", "");
        JsonObject meta = Json.createObjectBuilder().add("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01").build();
        JsonObject done = structured(sdk("agent-a").call("invoice_create", invoice(key, "order-mcp-6", 3000), meta).results().get(0));
        assertEquals(traceId, done.getJsonObject("operation").getString("trace_id"), done.toString());
    }

    @Test
    void speaks2026WithTheV2ClientWhichChoosesTheModernEraAndGetsTheSameToolsAndOneEffect() {
        String key = invoiceKey("mcp-modern");
        JsonObject run = sdk("agent-a").v2().list().call("invoice_create", invoice(key, "order-mcp-modern", 3100))
                .call("invoice_create", invoice(key, "order-mcp-modern", 3100))
                .call("invoice_create", invoice(key, "order-mcp-modern", 3101)).run();

        assertEquals("modern", run.getString("era"), "server/discover offered 2026-07-28 and the client took it");
        assertEquals("2026-07-28", run.getString("protocolVersion"));
        JsonArray steps = run.getJsonArray("steps");
        assertEquals(sdk("agent-a").list().results().getJsonObject(0).getJsonArray("tools"), steps.getJsonObject(0).getJsonArray("tools"),
                "the same tools and schemas as the 2025-11-25 client gets");
        JsonObject first = structured(steps.get(1));
        JsonObject second = structured(steps.get(2));
        assertEquals("succeeded", first.getString("outcome"), steps.toString());
        assertTrue(second.getBoolean("replayed"), "a retry with a new JSON-RPC id and the same key replays");
        assertTrue(steps.getJsonObject(3).getBoolean("isError"), "the same key with another amount is refused");
        assertEquals(List.of(first.getString("target_object_id")), oneC.effects("1c", Agent.downstream(key)));
    }

    @Test
    void replaysARetryWithANewRequestIdInEitherEraAndShowsTheKeyToEveryHop() {
        String key = invoiceKey("mcp-new-id");
        McpHttp mcp = new McpHttp(baseUrl(), "agent-a");
        JsonObject params = McpHttp.toolParams("invoice_create", invoice(key, "order-mcp-new-id", 2700));
        HttpResponse<String> modern = McpHttp.send(mcp.modern("first", "tools/call", params));
        HttpResponse<String> legacy = McpHttp.send(mcp.post(McpHttp.toolCall(2, "invoice_create", invoice(key, "order-mcp-new-id", 2700))));
        HttpResponse<String> again = McpHttp.send(mcp.modern("third", "tools/call", params));

        assertEquals(200, modern.statusCode(), modern.body());
        JsonObject first = McpHttp.json(modern).getJsonObject("result");
        assertEquals("complete", first.getString("resultType"));
        assertEquals("toolgate", first.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo").getString("name"));
        assertFalse(first.getJsonObject("structuredContent").getBoolean("replayed"));
        assertTrue(structured(McpHttp.json(legacy).get("result")).getBoolean("replayed"), legacy.body());
        assertTrue(structured(McpHttp.json(again).get("result")).getBoolean("replayed"), again.body());
        assertEquals("third", McpHttp.json(again).getString("id"));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "three request ids, one effect");
    }
}
