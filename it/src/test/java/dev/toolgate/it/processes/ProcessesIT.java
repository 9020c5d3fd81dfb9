package dev.toolgate.it.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Await;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The shipped processes on a gateway of their own, against the simulators: {@code order.fulfil} (1C invoice →
 * its posting → Bitrix24 deal → YooKassa payment, which needs an approval) and {@code order.prepay} (payment →
 * invoice → posting, the payment refunded — with its own approval — if the invoice cannot be made). Each
 * step's effect is counted at its system by the step's own key. The reconcile job runs every second.
 */
@Lane(2)
class ProcessesIT {

    private static final String DATABASE = "processes";
    private static GatewayProcess gateway;
    private static Path declarations;
    private final SimulatorClient targets = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        declarations = Files.createTempFile("toolgate-processes", ".json");
        // one declaration that runs, one the gateway must refuse at start-up (a step refers to a later one)
        Files.writeString(declarations, """
                [{"process": "test.longorder", "input": {"order_id": {"type": "text", "max_length": 200},
                   "amount_minor": {"type": "minor_amount"}},
                  "steps": [{"name": "invoice", "operation": "invoice.create",
                    "payload": {"order_id": "${input.order_id}", "amount_minor": "${input.amount_minor}", "currency": "RUB"},
                    "compensation": {"impossible": "test"}}]},
                 {"process": "test.broken", "input": {"order_id": {"type": "text"}},
                  "steps": [{"name": "deal", "operation": "crm.deal.create",
                    "payload": {"title": "${steps.invoice.result.number}", "amount_minor": 100, "currency": "RUB"},
                    "compensation": {"none": "test"}},
                   {"name": "invoice", "operation": "invoice.create",
                    "payload": {"order_id": "${input.order_id}", "amount_minor": 100, "currency": "RUB"},
                    "compensation": {"impossible": "test"}}]}]""");
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase(DATABASE));
        TestStack.fastReconcile(config);
        config.put("toolgate.process.declarations", declarations.toString());
        gateway = TestStack.readyGateway(TestStack.underLoad(config, 1_000), "processes-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
        Files.deleteIfExists(declarations);
    }

    @Test
    void aProcessRunsEachStepOnceWaitsForTheApprovalOfItsPaymentAndThenReplays() throws Exception {
        String key = key("fulfil");
        String body = fulfil("order-" + UUID.randomUUID(), 125_000);
        Agent.Answer waiting = start(agent(), key, body);
        assertEquals(202, waiting.status(), waiting.body());
        JsonObject process = waiting.json();
        assertEquals("awaiting_approval", process.getString("status"), process.toString());
        assertEquals(key + "/payment", process.getString("waiting_on"));
        assertEquals(List.of("succeeded", "succeeded", "succeeded", "pending_approval"), statuses(process));
        assertEquals(0, targets.creates("yookassa", Agent.downstream(key + "/payment")), "nothing is paid before the approval");

        approve(key + "/payment");
        Agent.Answer completed = start(agent(), key, body); // the agent follows up with the same key and payload
        assertEquals(200, completed.status(), completed.body());
        assertEquals("completed", completed.json().getString("status"));

        Agent.Answer replayed = start(agent(), key, body);
        assertEquals(200, replayed.status());
        assertEquals("true", replayed.header("Idempotent-Replayed"));
        assertOneEffectPerStep(key, replayed.json());
        JsonObject deal = step(replayed.json(), "deal");
        String number = step(replayed.json(), "invoice").getJsonObject("record").getJsonObject("result").getString("number");
        assertTrue(deal.getJsonObject("record").getString("operation_key").endsWith("/deal"));
        assertEquals(1, targets.creates("bitrix24", Agent.downstream(key + "/deal")), "the deal, once, titled with invoice " + number);
    }

    /** After a rollback, a process a newer release fingerprinted under a scheme of its own: never replayed nor refused. */
    @Test
    void aProcessFingerprintedByANewerReleasesSchemeIsNeitherReplayedNorRefused() throws Exception {
        String key = key("scheme");
        String body = fulfil("order-" + UUID.randomUUID(), 21_000);
        assertEquals(202, start(agent(), key, body).status());
        execute("UPDATE process_run SET request_hash = 's2:' || request_hash WHERE process_key = ?", key);
        Agent.Answer answer = start(agent(), key, body);
        assertEquals(503, answer.status(), answer.body());
        assertEquals("fingerprint-scheme-unknown", answer.problem());
        assertEquals("5", answer.header("Retry-After"));
        assertEquals(1, targets.creates("1c", Agent.downstream(key + "/invoice")), "no step sent again");
        assertEquals(1, targets.creates("bitrix24", Agent.downstream(key + "/deal")), "no step sent again");
        assertEquals(0, targets.creates("yookassa", Agent.downstream(key + "/payment")));
    }

    @Test
    void aPaymentWhoseApprovalExpiredUnusedWaitsForANewOneInsteadOfBeingSent() throws Exception {
        String key = key("expired");
        String body = fulfil("order-" + UUID.randomUUID(), 33_000);
        assertEquals(202, start(agent(), key, body).status());
        // held as an advancer's claim would hold it (a new epoch: a write of one still at work is refused), so nobody moves it yet
        execute("UPDATE process_run SET claimed_until = now() + interval '1 minute', claim_epoch = claim_epoch + 1 WHERE process_key = ?", key);
        approve(key + "/payment");
        execute("UPDATE operation_approval SET granted_at = granted_at - interval '2 minutes', expires_at = now() - interval '1 second'"
                + " WHERE operation_key = ?", key + "/payment"); // and the approval lapses unused
        execute("UPDATE process_run SET claimed_until = NULL, next_check_at = now() WHERE process_key = ?", key);

        Agent.Answer waiting = start(agent(), key, body); // the agent's follow-up; the job looks every second too
        assertEquals(202, waiting.status(), waiting.body());
        assertEquals("awaiting_approval", waiting.json().getString("status"), waiting.body());
        // whoever advanced it — this call, or the job (every second here) when it held the claim and the call was
        // answered with the row as it stood (seen failing so on a loaded host) — says why it waits
        Await.await(() -> read(key).getString("detail").contains("approval expired before it was sent"),
                "the process saying its approval expired before it was sent");
        Thread.sleep(2_000); // two runs of the job
        JsonObject still = read(key);
        assertEquals("awaiting_approval", still.getString("status"), "never sent, so never failed approval_expired, nothing compensated");
        assertEquals("pending_approval", step(still, "payment").getString("status"), still.toString());
        assertEquals(0, targets.creates("yookassa", Agent.downstream(key + "/payment")));

        approve(key + "/payment"); // a new decision, as the console offers it
        Await.await(() -> "completed".equals(read(key).getString("status")), "the job sending the payment approved anew");
        assertOneEffectPerStep(key, read(key));
    }

    @Test
    void theSameKeyWithAnotherPayloadIsRefusedAndNothingRuns() throws Exception {
        String key = key("reused");
        String order = "order-" + UUID.randomUUID();
        assertEquals(202, start(agent(), key, fulfil(order, 10_000)).status());
        long rows = TestStack.journalRows(DATABASE);
        Agent.Answer refused = start(agent(), key, fulfil(order, 99_000));
        assertEquals(422, refused.status(), refused.body());
        assertEquals("idempotency-key-reused", refused.problem());
        assertEquals(rows, TestStack.journalRows(DATABASE), "no step was captured for the other payload");
    }

    @Test
    void aLostAnswerA5xxA429AndATimeoutStillLeaveExactlyOneEffectPerStep() throws Exception {
        String key = key("faults");
        String body = fulfil("order-" + UUID.randomUUID(), 77_000);
        targets.arm("1c", Agent.downstream(key + "/invoice"), "drop_response_after_commit", 1); // the invoice saved, its answer lost
        targets.armStatusAfterCommit("1c", "/Post", 500);                                        // posted, then 1C's 500
        targets.armStatus("bitrix24", Agent.downstream(key + "/deal"), 429, 1);                 // refused for now
        targets.armDelay("yookassa", Agent.downstream(key + "/payment"), 1_500);                // beyond the read timeout
        Agent.Answer first = start(agent(), key, body);
        assertEquals(202, first.status(), first.body());
        Await.await(() -> "awaiting_approval".equals(read(key).getString("status")) || "completed".equals(read(key).getString("status")),
                "the process reaching its payment");
        approve(key + "/payment");
        JsonObject done = followUntilSettled(key, body);
        assertEquals("completed", done.getString("status"), done.toString());
        assertOneEffectPerStep(key, done);
    }

    @Test
    void aFinalFailureOfThePaymentCompensatesTheEarlierStepsAsDeclared() throws Exception {
        String key = key("compensate");
        String body = fulfil("order-" + UUID.randomUUID(), 55_000);
        assertEquals(202, start(agent(), key, body).status());
        approve(key + "/payment");
        targets.armStatus("yookassa", Agent.downstream(key + "/payment"), 400, 1); // YooKassa refuses the payment for good
        JsonObject done = followUntilSettled(key, body);
        assertEquals("compensated", done.getString("status"), done.toString());
        assertTrue(done.getString("detail").contains("step 'payment' failed"), done.getString("detail"));
        assertTrue(done.getString("detail").contains("compensated: 'deal', 'invoice'; not undone, as declared: 'post' (the invoice's"
                + " cancellation answers for its posting"), "and what it did not undo, and why: " + done.getString("detail"));
        String invoice = step(done, "invoice").getJsonObject("record").getString("target_object_id");
        String deal = step(done, "deal").getJsonObject("record").getString("target_object_id");
        assertEquals(1, targets.losses(deal).count(), "the deal moved to lost, once");
        assertEquals(1, targets.cancellations(invoice).count(), "the invoice cancelled (status Отменен), once");
        assertEquals(1, targets.postings(invoice).count(), "and never unposted: its posting stays in the record");
        assertEquals(List.of(invoice), targets.effects("1c", Agent.downstream(key + "/invoice")), "never deleted");
        assertEquals("none", step(done, "post").getJsonObject("compensation").getString("declared"), "said so, not silently skipped");
        assertEquals("succeeded", step(done, "deal").getJsonObject("compensation").getString("status"));
        assertEquals("not_started", step(done, "payment").getJsonObject("compensation").getString("status"), "nothing to refund");
    }

    @Test
    void aFailedCompensationWaitsForAPersonWhoSettlesItWithEvidence() throws Exception {
        String key = key("stuck");
        String body = fulfil("order-" + UUID.randomUUID(), 21_000);
        assertEquals(202, start(agent(), key, body).status());
        approve(key + "/payment");
        targets.armStatus("yookassa", Agent.downstream(key + "/payment"), 400, 1); // the payment refused for good
        targets.armStatus("bitrix24", "crm.deal.update", 400, 1);                 // and the deal's move to lost too
        JsonObject stuck = followUntilSettled(key, body);
        assertEquals("needs_attention", stuck.getString("status"), stuck.toString());
        assertTrue(stuck.getString("detail").contains("the compensation of 'deal' failed"), stuck.getString("detail"));
        assertEquals("not_started", step(stuck, "invoice").getJsonObject("compensation").getString("status"),
                "compensation stops at the failed one: the invoice waits for the person too");
        assertFalse(stuck.containsKey("next_check_at"), "nothing changes by itself any more");

        Agent operator = new Agent(gateway.baseUrl(), "operator");
        String metrics = operator.send(HttpRequest.newBuilder(uri("/api/metrics"))).body();
        assertTrue(metrics.matches("(?s).*toolgate_processes_unfinished\\{status=\"needs_attention\"} [1-9].*"), metrics);
        Agent.Answer byAgent = agent().send(resolveProcess(key, "{\"outcome\":\"compensated\",\"evidence\":\"x\"}"));
        assertEquals(403, byAgent.status(), "only an operator settles it");
        assertProblem(operator.send(resolveProcess(key, "{\"outcome\":\"done\",\"evidence\":\"x\"}")), 400, "invalid-request");
        Agent.Answer resolved = operator.send(resolveProcess(key, "{\"outcome\":\"compensated\",\"evidence\":"
                + "\"deal closed as lost by hand in Bitrix24; invoice cancelled by the accountant\"}"));
        assertEquals(200, resolved.status(), resolved.body());
        assertEquals("compensated", resolved.json().getString("status"));
        assertTrue(resolved.json().getString("detail").startsWith("resolved by operator as compensated: deal closed"));
        assertTrue(resolved.json().getJsonArray("events").getValuesAs(JsonObject.class).stream()
                .anyMatch(e -> "operator".equals(e.getString("actor")) && "compensated".equals(e.getString("status"))));
        assertProblem(operator.send(resolveProcess(key, "{\"outcome\":\"failed\",\"evidence\":\"again\"}")), 409,
                "process-not-needing-attention");
        assertEquals("true", start(agent(), key, body).header("Idempotent-Replayed"), "settled for good: a replay");
    }

    @Test
    void aRefundCompensatesAPaymentAndWaitsForItsOwnApproval() throws Exception {
        String key = key("prepay");
        String body = "{\"process\":\"order.prepay\",\"payload\":{\"order_id\":\"order-" + UUID.randomUUID()
                + "\",\"amount_minor\":42000,\"currency\":\"RUB\"}}";
        assertEquals(202, start(agent(), key, body).status());
        approve(key + "/payment");
        targets.armStatus("1c", Agent.downstream(key + "/invoice"), 400, 1); // 1C refuses the invoice for good
        Await.await(() -> "compensating".equals(read(key).getString("status"))
                && (key + "/payment/compensation").equals(read(key).getString("waiting_on", "")), "the refund waiting for approval");
        JsonObject waiting = read(key);
        assertEquals("pending_approval", step(waiting, "payment").getJsonObject("compensation").getString("status"), waiting.toString());
        assertEquals(0, targets.creates("yookassa", Agent.downstream(key + "/payment/compensation")), "no refund before its approval");
        approve(key + "/payment/compensation");
        Await.await(() -> "compensated".equals(read(key).getString("status")), "the reconcile job sending the approved refund");
        JsonObject done = read(key);
        String payment = step(done, "payment").getJsonObject("record").getString("target_object_id");
        String refund = step(done, "payment").getJsonObject("compensation").getJsonObject("record").getString("target_object_id");
        assertNotNull(refund);
        assertEquals(List.of(refund), targets.effects("yookassa", Agent.downstream(key + "/payment/compensation")), "one refund");
        assertEquals(List.of(payment), targets.effects("yookassa", Agent.downstream(key + "/payment")), "of the one payment");

        // the job sent the refund (no agent called after its approval): in the process's own trace, as the agent's call was
        String trace = done.getString("trace_id");
        String refundKey = key + "/payment/compensation";
        assertEquals(List.of(trace), traceIds("SELECT DISTINCT trace_id FROM agent_operation_log WHERE operation_key = ?", refundKey));
        assertEquals(List.of(trace), traceIds("SELECT DISTINCT trace_id FROM operation_event WHERE operation_key = ? AND kind <> 'approved'",
                refundKey), "every event but the approver's own call");
        List<String> logged = Files.readAllLines(Path.of("target", "processes-gateway.log")).stream()
                .filter(line -> line.contains("operation_key=" + refundKey + " ")).toList();
        assertFalse(logged.isEmpty(), "the refund's log lines");
        assertTrue(logged.stream().filter(line -> !line.contains("event=approved")).allMatch(line -> line.contains("trace_id=" + trace)),
                String.join("\n", logged));
    }

    @Test
    void aReplacementAgentResumesAProcessWithTheKeyAlone() throws Exception {
        String key = key("handover");
        String body = fulfil("order-" + UUID.randomUUID(), 31_000);
        targets.arm("bitrix24", Agent.downstream(key + "/deal"), "drop_response_after_commit", 1);
        Agent.Answer lastWords = start(agent(), key, body); // agent A's answer: the deal's outcome is unknown; then A is gone
        assertEquals(202, lastWords.status(), lastWords.body());

        Agent replacement = new Agent(gateway.baseUrl(), "agent-b");
        JsonObject found = replacement.send(HttpRequest.newBuilder(uri("/api/v1/processes?key=" + encode(key)))).json();
        assertEquals("order.fulfil", found.getString("process"));
        assertEquals(31_000, found.getJsonObject("payload").getInt("amount_minor"), "the recorded input");
        Agent.Answer resumed = replacement.send(HttpRequest.newBuilder(uri("/api/v1/processes/" + encode(key) + "/resume"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(202, resumed.status(), resumed.body());
        Await.await(() -> "awaiting_approval".equals(read(key).getString("status")), "the process reaching its payment");
        approve(key + "/payment");
        Agent.Answer done = resumeUntilSettled(replacement, key); // the reconcile job may be sending the payment: 202 meanwhile
        assertEquals(200, done.status(), done.body());
        assertEquals("completed", done.json().getString("status"));
        assertOneEffectPerStep(key, done.json());
        assertEquals("agent-a", agentOf(key + "/invoice"));
        assertEquals("agent-a", agentOf(key + "/payment"), "every step is the submitting agent's intent, whoever moves the process");
        assertTrue(done.json().getJsonArray("events").getValuesAs(JsonObject.class).stream()
                .anyMatch(e -> "resumed".equals(e.getString("kind")) && "agent-b".equals(e.getString("actor"))), "who moved it is the story");
        Agent.Answer withBody = replacement.send(HttpRequest.newBuilder(uri("/api/v1/processes/" + encode(key) + "/resume"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"amount_minor\":1}")));
        assertEquals(400, withBody.status());
        assertEquals("resume-takes-no-parameters", withBody.problem());
    }

    @Test
    void theReconcileJobFinishesAProcessWithNoAgent() throws Exception {
        String key = key("no-agent");
        String body = "{\"process\":\"test.longorder\",\"payload\":{\"order_id\":\"order-" + UUID.randomUUID() + "\",\"amount_minor\":12300}}";
        targets.arm("1c", Agent.downstream(key + "/invoice"), "drop_response_after_commit", 1);
        // and the first look-up by key fails too, so the agent's call (which makes one when it is due) ends waiting
        targets.arm("1c", "DeletionMark", "GET", "status", 1, 0);
        Agent.Answer only = start(agent(), key, body); // the agent's one and only call
        assertEquals(202, only.status(), only.body());
        assertEquals("unknown", step(only.json(), "invoice").getString("status"));
        Await.await(() -> "completed".equals(read(key).getString("status")), "the reconcile job settling the step and the process");
        assertEquals(1, targets.effects("1c", Agent.downstream(key + "/invoice")).size(), "found by its key, not sent again");
        assertTrue(read(key).getJsonArray("events").getValuesAs(JsonObject.class).stream()
                .anyMatch(e -> "reconciler".equals(e.getString("actor")) && "completed".equals(e.getString("status"))));
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsStored() throws Exception {
        long rows = TestStack.journalRows(DATABASE);
        String key = key("bad");
        assertProblem(start(agent(), key, "{\"process\":\"order.teleport\",\"payload\":{}}"), 400, "unknown-process");
        assertProblem(start(agent(), key, "{\"process\":\"test.broken\",\"payload\":{\"order_id\":\"o\"}}"), 400, "unknown-process");
        assertProblem(start(agent(), key, "{\"process\":\"order.fulfil\",\"payload\":{\"order_id\":\"o\",\"currency\":\"RUB\"}}"),
                400, "invalid-payload");
        assertProblem(start(agent(), key, "{\"process\":\"order.fulfil\",\"payload\":{},\"extra\":1}"), 400, "invalid-request");
        assertProblem(start(agent(), key, "{\"process\":\"order.fulfil\"}"), 400, "invalid-request");
        assertProblem(start(agent(), key, "[1]"), 400, "malformed-json");
        // valid for the process's input, invalid for its step: invoice.create takes an order_id of at most 128
        Agent.Answer stepInvalid = start(agent(), key, "{\"process\":\"test.longorder\",\"payload\":{\"order_id\":\""
                + "o".repeat(150) + "\",\"amount_minor\":100}}");
        assertProblem(stepInvalid, 400, "invalid-payload");
        assertTrue(stepInvalid.json().getString("detail").startsWith("step 'invoice' (invoice.create) would be invalid"),
                stepInvalid.body());
        assertProblem(start(agent(), "k".repeat(201), fulfil("o", 100)), 400, "idempotency-key-invalid");
        assertEquals(rows, TestStack.journalRows(DATABASE), "no operation was captured");
        assertEquals(0, processRows(key), "no process was registered");
        assertProblem(agent().send(HttpRequest.newBuilder(uri("/api/v1/processes/" + encode(key)))), 404, "process-not-found");
        assertProblem(agent().send(HttpRequest.newBuilder(uri("/api/v1/processes/" + encode(key) + "/resume"))
                .POST(HttpRequest.BodyPublishers.noBody())), 404, "process-not-found");
        assertTrue(Files.readString(Path.of("target", "processes-gateway.log"))
                .contains("process declaration refused (" + declarations + "): process 'test.broken': step 'deal':"
                        + " 'title' refers to ${steps.invoice.result.number}, a step that runs later"), "the start-up log says why");
    }

    @Test
    void anAuditorReadsProcessesButCannotStartOne() throws Exception {
        Agent auditor = new Agent(gateway.baseUrl(), "auditor");
        assertEquals(403, start(auditor, key("auditor"), fulfil("o", 100)).status());
        Agent.Answer types = auditor.send(HttpRequest.newBuilder(uri("/api/v1/process-types")));
        assertEquals(200, types.status(), types.body());
        assertTrue(types.body().contains("\"order.fulfil\"") && types.body().contains("\"order.prepay\""), types.body());
        assertFalse(types.body().contains("test.broken"), "a refused declaration is not offered");
        for (int i = 0; i < 2; i++) { // two processes at least, to page through
            assertEquals(201, start(agent(), key("page"), "{\"process\":\"test.longorder\",\"payload\":{\"order_id\":\"o-" + i
                    + "\",\"amount_minor\":100}}").status());
        }
        Agent.Answer page = auditor.send(HttpRequest.newBuilder(uri("/api/v1/processes?limit=1")));
        assertEquals(200, page.status(), page.body());
        JsonObject first = page.json();
        Agent.Answer next = auditor.send(HttpRequest.newBuilder(uri("/api/v1/processes?limit=1&before=" + first.getString("next_before")
                + "&before_key=" + encode(first.getString("next_before_key")))));
        assertEquals(200, next.status(), next.body());
        assertFalse(next.json().getJsonArray("processes").getJsonObject(0).getString("process_key")
                .equals(first.getJsonArray("processes").getJsonObject(0).getString("process_key")), "the next page goes on");
        assertProblem(auditor.send(HttpRequest.newBuilder(uri("/api/v1/processes?status=finished"))), 400, "invalid-request");
    }

    /** The agent re-sends the same process, as told, until it is settled; the reconcile job works meanwhile. */
    private JsonObject followUntilSettled(String key, String body) throws Exception {
        for (int i = 0; i < 90; i++) {
            Agent.Answer answer = start(agent(), key, body);
            if (answer.status() == 200 || answer.status() == 201) {
                return answer.json();
            }
            assertEquals(202, answer.status(), answer.body());
            Thread.sleep(1_000);
        }
        throw new AssertionError("process " + key + " did not settle: " + read(key));
    }

    /** The replacement agent resumes, as told, until the process is settled; the reconcile job works meanwhile. */
    private Agent.Answer resumeUntilSettled(Agent replacement, String key) throws Exception {
        for (int i = 0; i < 90; i++) {
            Agent.Answer answer = replacement.send(HttpRequest.newBuilder(uri("/api/v1/processes/" + encode(key) + "/resume"))
                    .POST(HttpRequest.BodyPublishers.noBody()));
            if (answer.status() != 202) {
                return answer;
            }
            Thread.sleep(1_000);
        }
        throw new AssertionError("process " + key + " did not settle: " + read(key));
    }

    /** Each step that succeeded has exactly one object at its system, the one its record names; posting happened once. */
    private void assertOneEffectPerStep(String key, JsonObject process) {
        for (JsonObject step : process.getJsonArray("steps").getValuesAs(JsonObject.class)) {
            if (!"succeeded".equals(step.getString("status"))) {
                continue;
            }
            String object = step.getJsonObject("record").getString("target_object_id");
            switch (step.getString("name")) {
                case "post" -> {
                    assertEquals(1, targets.postings(object).count(), "posted once");
                    assertEquals(0, targets.postings(object).repeated(), "never re-posted");
                }
                default -> assertEquals(List.of(object), targets.effects(step.getString("target"),
                        Agent.downstream(key + "/" + step.getString("name"))), step.getString("name") + ": one object, the recorded one");
            }
        }
    }

    private static String fulfil(String order, long amount) {
        return "{\"process\":\"order.fulfil\",\"payload\":{\"order_id\":\"" + order + "\",\"amount_minor\":" + amount
                + ",\"currency\":\"RUB\"}}";
    }

    private static HttpRequest.Builder resolveProcess(String key, String body) {
        return HttpRequest.newBuilder(uri("/api/v1/processes/" + encode(key) + "/resolve")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static Agent.Answer start(Agent agent, String key, String body) {
        return agent.send(HttpRequest.newBuilder(uri("/api/v1/processes")).timeout(Duration.ofSeconds(60)).header("Idempotency-Key", key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static JsonObject read(String key) {
        return agent().send(HttpRequest.newBuilder(uri("/api/v1/processes?key=" + encode(key)))).json();
    }

    /** The approver approves the step's operation as it is shown: its key and its fingerprint, never typed. */
    private static void approve(String operationKey) {
        Agent approver = new Agent(gateway.baseUrl(), "approver");
        String fingerprint = approver.find(operationKey).json().getString("request_hash");
        Agent.Answer granted = approver.send(HttpRequest.newBuilder(uri("/api/v1/approvals")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"operation_key\":\"" + operationKey + "\",\"request_hash\":\"" + fingerprint
                        + "\",\"expires_in_seconds\":3600,\"note\":\"checked\"}")));
        assertEquals(201, granted.status(), granted.body());
    }

    private static JsonObject step(JsonObject process, String name) {
        return process.getJsonArray("steps").getValuesAs(JsonObject.class).stream().filter(s -> s.getString("name").equals(name))
                .findFirst().orElseThrow();
    }

    private static List<String> statuses(JsonObject process) {
        return process.getJsonArray("steps").getValuesAs(JsonObject.class).stream().map(s -> s.getString("status")).toList();
    }

    private static String agentOf(String operationKey) throws Exception {
        try (Connection c = TestStack.connect(DATABASE);
             PreparedStatement q = c.prepareStatement("SELECT agent_id FROM agent_operation_log WHERE operation_key = ?")) {
            q.setString(1, operationKey);
            try (ResultSet r = q.executeQuery()) {
                return r.next() ? r.getString(1) : null;
            }
        }
    }

    private static List<String> traceIds(String sql, String key) throws Exception {
        try (Connection c = TestStack.connect(DATABASE); PreparedStatement q = c.prepareStatement(sql)) {
            q.setString(1, key);
            List<String> ids = new java.util.ArrayList<>();
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    ids.add(r.getString(1));
                }
            }
            return ids;
        }
    }

    private static void execute(String sql, String key) throws Exception {
        try (Connection c = TestStack.connect(DATABASE); PreparedStatement update = c.prepareStatement(sql)) {
            update.setString(1, key);
            assertEquals(1, update.executeUpdate(), sql);
        }
    }

    private static long processRows(String key) throws Exception {
        try (Connection c = TestStack.connect(DATABASE);
             PreparedStatement q = c.prepareStatement("SELECT count(*) FROM process_run WHERE process_key = ?")) {
            q.setString(1, key);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private static void assertProblem(Agent.Answer answer, int status, String problem) {
        assertEquals(status, answer.status(), answer.body());
        assertEquals(problem, answer.problem(), answer.body());
    }

    private static Agent agent() {
        return new Agent(gateway.baseUrl(), "agent-a");
    }

    private static URI uri(String path) {
        return URI.create(gateway.baseUrl().replaceAll("/$", "") + path);
    }

    private static String encode(String key) {
        return URLEncoder.encode(key, StandardCharsets.UTF_8);
    }

    private static String key(String intent) {
        return "test:process:" + intent + "-" + UUID.randomUUID().toString().substring(0, 8) + ":v1";
    }
}
