package dev.toolgate.it.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.ApprovalSuite;
import dev.toolgate.it.support.McpHttp;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Long operations as tasks (extension io.modelcontextprotocol/tasks) for a 2026-07-28 client that declares it: the
 * task is the journal's row, named by the key, read by tasks/get; approvals ask for the console's page by URL-mode
 * elicitation; tasks/cancel cancels only what was not sent. Counted at the simulated targets.
 */
class McpTasksIT extends ApprovalSuite {

    private static final JsonObject TASKS_AND_URLS = Json.createObjectBuilder()
            .add("extensions", Json.createObjectBuilder().add("io.modelcontextprotocol/tasks", Json.createObjectBuilder()))
            .add("elicitation", Json.createObjectBuilder().add("url", Json.createObjectBuilder())).build();

    private final McpHttp mcp = new McpHttp(baseUrl(), "agent-a");
    private int id;

    private JsonObject send(String method, JsonObject params, JsonObject capabilities) {
        HttpResponse<String> answer = McpHttp.send(mcp.modern(++id, method, params, capabilities));
        assertEquals(200, answer.statusCode(), answer.body());
        JsonObject body = McpHttp.json(answer);
        assertTrue(body.containsKey("result"), body.toString());
        return body.getJsonObject("result");
    }

    private JsonObject call(String tool, JsonObject arguments) {
        return send("tools/call", McpHttp.toolParams(tool, arguments), TASKS_AND_URLS);
    }

    private JsonObject task(String method, String taskId, JsonObject more) {
        return send(method, Json.createObjectBuilder(more).add("taskId", taskId).build(), TASKS_AND_URLS);
    }

    private static JsonObject payment(String key) {
        return Json.createObjectBuilder().add("idempotency_key", key).add("order_id", "order-" + Integer.toHexString(key.hashCode()))
                .add("amount_minor", 31900).add("currency", "RUB").add("description", "Заказ через задачу MCP").build();
    }

    private static JsonObject invoice(String key) {
        return Json.createObjectBuilder().add("idempotency_key", key).add("order_id", "order-task").add("amount_minor", 1500)
                .add("currency", "RUB").build();
    }

    @Test
    void makesAnApprovalATaskAskingForTheConsolePageThenCompletesItOnceApproved() {
        String key = "test:payment.create:mcp-task-" + UUID.randomUUID() + ":v1";
        JsonObject created = call("payment_create", payment(key));
        assertEquals("task", created.getString("resultType"), created.toString());
        assertEquals("operation:" + key, created.getString("taskId"));
        assertEquals("input_required", created.getString("status"));
        assertTrue(created.isNull("ttlMs"), "unfinished: the journal keeps it as long as it takes");

        JsonObject again = call("payment_create", payment(key));
        assertEquals("operation:" + key, again.getString("taskId"), "a lost CreateTaskResult is recovered by calling again with the key");

        JsonObject waiting = task("tasks/get", created.getString("taskId"), Json.createObjectBuilder().build());
        assertEquals("complete", waiting.getString("resultType"));
        assertEquals("input_required", waiting.getString("status"));
        JsonObject request = waiting.getJsonObject("inputRequests").values().iterator().next().asJsonObject();
        assertEquals("url", request.getJsonObject("params").getString("mode"));
        assertEquals(baseUrl() + "/console/approval?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8),
                request.getJsonObject("params").getString("url"));
        assertEquals(0, yooKassa.creates("yookassa", Agent.downstream(key)), "nothing sent before the approval");

        approve(key);
        String inputKey = waiting.getJsonObject("inputRequests").keySet().iterator().next();
        JsonObject ack = task("tasks/update", created.getString("taskId"), Json.createObjectBuilder()
                .add("inputResponses", Json.createObjectBuilder().add(inputKey, Json.createObjectBuilder().add("action", "accept"))).build());
        assertEquals("complete", ack.getString("resultType"));
        JsonObject done = task("tasks/get", created.getString("taskId"), Json.createObjectBuilder().build());
        assertEquals("completed", done.getString("status"), done.toString());
        assertEquals("succeeded", done.getJsonObject("result").getJsonObject("structuredContent").getString("outcome"));
        assertTrue(done.getJsonNumber("ttlMs").longValue() > 0, "from retention, once finished");
        assertEquals(1, yooKassa.effects("yookassa", Agent.downstream(key)).size());
    }

    @Test
    void makesAProcessWaitingOnAStepsApprovalATaskAndCompletesItOnceTheStepIsApproved() {
        String key = "test:process:mcp-task-" + UUID.randomUUID().toString().substring(0, 8) + ":v1";
        JsonObject order = Json.createObjectBuilder().add("idempotency_key", key).add("order_id", "order-mcp-task-process")
                .add("amount_minor", 8800).add("currency", "RUB").build();
        JsonObject created = call("process_order_fulfil", order);
        assertEquals("task", created.getString("resultType"), created.toString());
        assertEquals("process:" + key, created.getString("taskId"));
        assertEquals("input_required", created.getString("status"), "invoice, posting and deal done; the payment waits for a person");

        JsonObject waiting = task("tasks/get", created.getString("taskId"), Json.createObjectBuilder().build());
        JsonObject request = waiting.getJsonObject("inputRequests").values().iterator().next().asJsonObject();
        assertEquals(baseUrl() + "/console/approval?key=" + URLEncoder.encode(key + "/payment", StandardCharsets.UTF_8),
                request.getJsonObject("params").getString("url"));

        approve(key + "/payment");
        String inputKey = waiting.getJsonObject("inputRequests").keySet().iterator().next();
        task("tasks/update", created.getString("taskId"), Json.createObjectBuilder()
                .add("inputResponses", Json.createObjectBuilder().add(inputKey, Json.createObjectBuilder().add("action", "accept"))).build());
        JsonObject done = task("tasks/get", created.getString("taskId"), Json.createObjectBuilder().build());
        assertEquals("completed", done.getString("status"), done.toString());
        assertEquals("completed", done.getJsonObject("result").getJsonObject("structuredContent").getJsonObject("process").getString("status"));
        assertEquals(1, yooKassa.effects("yookassa", Agent.downstream(key + "/payment")).size());
    }

    @Test
    void showsAnOutcomeBeingClarifiedAsAWorkingTaskThatTheJournalSettles() {
        String key = "test:invoice.create:mcp-task-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        JsonObject created = call("invoice_create", invoice(key));
        assertEquals("task", created.getString("resultType"), created.toString());
        assertEquals("working", created.getString("status"));
        assertTrue(created.getString("statusMessage").contains("clarified"), created.getString("statusMessage"));
        assertTrue(created.getInt("pollIntervalMs") >= 1000);
        assertEquals("working", task("tasks/get", created.getString("taskId"), Json.createObjectBuilder().build()).getString("status"));

        JsonObject settled = call("invoice_create", invoice(key)); // the same key again: looked up by key, never sent again
        assertEquals("complete", settled.getString("resultType"), "settled now: the tool's answer, no task");
        JsonObject done = task("tasks/get", created.getString("taskId"), Json.createObjectBuilder().build());
        assertEquals("completed", done.getString("status"), done.toString());
        assertEquals(settled.getJsonObject("structuredContent").getString("target_object_id"),
                done.getJsonObject("result").getJsonObject("structuredContent").getString("target_object_id"));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)));
    }

    @Test
    void cancelsWhatWasNotSentAndSaysPlainlyThatASentEffectRunsToItsOutcome() {
        String waiting = "test:payment.create:mcp-cancel-" + UUID.randomUUID() + ":v1";
        String taskId = call("payment_create", payment(waiting)).getString("taskId");
        JsonObject cancelled = task("tasks/cancel", taskId, Json.createObjectBuilder().build());
        assertTrue(cancelled.getJsonObject("_meta").getString("dev.toolgate/cancellation").startsWith("cancelled"), cancelled.toString());
        assertEquals("cancelled", task("tasks/get", taskId, Json.createObjectBuilder().build()).getString("status"));
        approveFails(waiting);
        assertEquals(0, yooKassa.creates("yookassa", Agent.downstream(waiting)), "never sent");

        String lost = "test:invoice.create:mcp-cancel-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", lost, "drop_response_after_commit", 1);
        String lostTask = call("invoice_create", invoice(lost)).getString("taskId");
        String words = task("tasks/cancel", lostTask, Json.createObjectBuilder().build()).getJsonObject("_meta")
                .getString("dev.toolgate/cancellation");
        assertTrue(words.startsWith("not cancelled") && words.contains("recorded outcome"), words);
        assertEquals("succeeded", call("invoice_create", invoice(lost)).getJsonObject("structuredContent").getString("outcome"));
        assertEquals(1, oneC.creates("1c", Agent.downstream(lost)));
    }

    /**
     * Another agent of the same tenant may read the task but not withdraw it: declining is the submitting agent's or an
     * approver's, as REST's decline is an approver's alone. Before, any agent or operator of the tenant could decline
     * another agent's operation, and with it revoke an approval a person had granted.
     */
    @Test
    void letsOnlyTheSubmittingAgentWithdrawItsTask() {
        String waiting = "test:payment.create:mcp-foreign-cancel-" + UUID.randomUUID() + ":v1";
        String taskId = call("payment_create", payment(waiting)).getString("taskId");
        McpHttp other = new McpHttp(baseUrl(), "agent-b");
        HttpResponse<String> refused = McpHttp.send(other.modern(1, "tasks/cancel", Json.createObjectBuilder().add("taskId", taskId).build(),
                TASKS_AND_URLS));
        String words = McpHttp.json(refused).getJsonObject("result").getJsonObject("_meta").getString("dev.toolgate/cancellation");
        assertTrue(words.startsWith("not cancelled") && words.contains("submitted"), words);
        assertEquals("input_required", task("tasks/get", taskId, Json.createObjectBuilder().build()).getString("status"),
                "still waiting for a person");

        HttpResponse<String> auditorReads = McpHttp.send(new McpHttp(baseUrl(), "auditor").modern(1, "tasks/get",
                Json.createObjectBuilder().add("taskId", taskId).build(), TASKS_AND_URLS));
        assertEquals("input_required", McpHttp.json(auditorReads).getJsonObject("result").getString("status"), "an auditor reads it");
    }

    private void approveFails(String key) {
        String fingerprint = approver().find(key).json().getString("request_hash");
        Agent.Answer granted = approver().send(grant("{\"operation_key\":\"" + key + "\",\"request_hash\":\"" + fingerprint
                + "\",\"expires_in_seconds\":3600}"));
        assertEquals(409, granted.status(), "a cancelled operation cannot be approved: " + granted.body());
    }

    private static final JsonObject URLS_ONLY = Json.createObjectBuilder()
            .add("elicitation", Json.createObjectBuilder().add("url", Json.createObjectBuilder())).build();

    private HttpResponse<String> retry(String key, String state, boolean accepted) {
        JsonObject params = Json.createObjectBuilder(McpHttp.toolParams("payment_create", payment(key))).add("requestState", state)
                .add("inputResponses", Json.createObjectBuilder().add("approval", Json.createObjectBuilder()
                        .add("action", accepted ? "accept" : "decline"))).build();
        return McpHttp.send(mcp.modern(++id, "tools/call", params, URLS_ONLY));
    }

    @Test
    void asksForTheApprovalPageWithAnIntegrityProtectedSingleUseRequestStateAndSendsOnceApproved() {
        String key = "test:payment.create:mcp-mrtr-" + UUID.randomUUID() + ":v1";
        JsonObject asked = send("tools/call", McpHttp.toolParams("payment_create", payment(key)), URLS_ONLY);
        assertEquals("input_required", asked.getString("resultType"), asked.toString());
        JsonObject page = asked.getJsonObject("inputRequests").values().iterator().next().asJsonObject();
        assertEquals(baseUrl() + "/console/approval?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8),
                page.getJsonObject("params").getString("url"));
        String state = asked.getString("requestState");
        assertEquals(0, yooKassa.creates("yookassa", Agent.downstream(key)), "nothing sent before the approval");

        String tampered = state.substring(0, state.length() - 4) + (state.endsWith("AAAA") ? "BBBB" : "AAAA");
        assertEquals(-32602, McpHttp.json(retry(key, tampered, true)).getJsonObject("error").getInt("code"), "a tampered state is refused");
        JsonObject notYet = McpHttp.json(retry(key, state, true)).getJsonObject("result");
        assertEquals("input_required", notYet.getString("resultType"), "no person has approved: asked again, nothing sent");

        approve(key);
        JsonObject paid = McpHttp.json(retry(key, state, true)).getJsonObject("result");
        assertEquals("succeeded", paid.getJsonObject("structuredContent").getString("outcome"), paid.toString());
        JsonObject reused = McpHttp.json(retry(key, state, true));
        assertEquals(-32602, reused.getJsonObject("error").getInt("code"), "single use: " + reused);
        assertEquals(1, yooKassa.effects("yookassa", Agent.downstream(key)).size());
    }

    @Test
    void givesAClientThatDoesNotDeclareTasksTodaysAnswer() {
        String key = "test:payment.create:mcp-no-task-" + UUID.randomUUID() + ":v1";
        JsonObject answer = send("tools/call", McpHttp.toolParams("payment_create", payment(key)), Json.createObjectBuilder().build());
        assertEquals("complete", answer.getString("resultType"));
        assertEquals("approval_required", answer.getJsonObject("structuredContent").getString("outcome"));
        assertFalse(answer.containsKey("taskId"));
    }

    @Test
    void answersAnUnknownTaskAsInvalidParams() {
        HttpResponse<String> answer = McpHttp.send(mcp.modern(1, "tasks/get", Json.createObjectBuilder()
                .add("taskId", "operation:test:nothing-" + UUID.randomUUID()).build(), TASKS_AND_URLS));
        assertEquals(-32602, McpHttp.json(answer).getJsonObject("error").getInt("code"));
    }
}
