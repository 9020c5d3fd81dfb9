package dev.toolgate.it.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Await;
import dev.toolgate.it.support.McpHttp;
import dev.toolgate.it.support.OtlpReceiver;
import dev.toolgate.it.support.ReceivedSpan;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A gateway with tracing on, exporting to a receiver in this test: what an agent, an operator or a tracing
 * backend sees of an operation's life in its spans.
 */
class TracingIT {

    static final Duration EXPORTED = Duration.ofSeconds(30);
    private static final String AGENT_SPAN = "00f067aa0ba902b7";

    private static final String NOTIFICATION_TOKEN = "tracing-suite-application-token";
    private static OtlpReceiver receiver;
    private static GatewayProcess gateway;
    private final SimulatorClient oneC = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        receiver = OtlpReceiver.start();
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase("tracing"));
        config.put("toolgate.reconcile.interval-seconds", "0"); // the test starts the run itself
        config.put("toolgate.process.poll-seconds", "1");        // a waiting process is due for the run a second later
        config.putAll(OtlpReceiver.gatewayConfig(receiver.endpoint()));
        config.put("toolgate.target.bitrix24.notifications.application-token", NOTIFICATION_TOKEN); // this suite's own events
        gateway = TestStack.readyGateway(config, "tracing-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
        if (receiver != null) {
            receiver.close();
        }
    }

    @Test
    void aNewOperationIsOneTraceContinuingTheAgentsTraceparentWithEveryStepCarryingTheKey() {
        String key = "test:invoice.create:trace-" + UUID.randomUUID() + ":v1";
        String traceId = newTraceId();
        Agent.Answer created = new Agent(gateway.baseUrl()).send(new Agent(gateway.baseUrl()).operations()
                .header("Idempotency-Key", key).header("Content-Type", "application/json")
                .header("traceparent", "00-" + traceId + "-" + AGENT_SPAN + "-01")
                .POST(HttpRequest.BodyPublishers.ofString(Agent.invoice("order-trace-1", 125000))));
        assertEquals(201, created.status(), created.body());
        assertEquals(traceId, created.json().getString("trace_id"), "the journal row names the agent's trace");
        String objectId = created.json().getString("target_object_id");

        receiver.awaitSpans(spans -> has(spans, traceId, "execute_tool invoice.create") && hasKind(spans, traceId, "SERVER"), EXPORTED);
        List<ReceivedSpan> trace = receiver.awaitQuiet(Duration.ofSeconds(1), EXPORTED).stream().filter(s -> s.traceId().equals(traceId)).toList();

        ReceivedSpan server = kind(trace, "SERVER");
        assertEquals(1, trace.stream().filter(s -> s.kind().equals("SERVER")).count(), "one server span: the server's or ours");
        assertEquals(AGENT_SPAN, server.parentSpanId(), "the server span continues the agent's span");
        ReceivedSpan tool = named(trace, "execute_tool invoice.create");
        assertEquals(server.spanId(), tool.parentSpanId());
        assertEquals("execute_tool", tool.attribute("gen_ai.operation.name"));
        assertEquals("invoice.create", tool.attribute("gen_ai.tool.name"));
        assertEquals("succeeded", tool.attribute("toolgate.status"));
        assertEquals(objectId, tool.attribute("toolgate.target_object_id"));
        ReceivedSpan capture = named(trace, "toolgate.capture");
        assertEquals("execute", capture.attribute("toolgate.outcome"));
        assertEquals("started", capture.attribute("toolgate.status"));
        ReceivedSpan attempt = named(trace, "toolgate.attempt");
        assertEquals("1", attempt.attribute("toolgate.attempt"));
        ReceivedSpan client = kind(trace, "CLIENT");
        assertEquals(attempt.spanId(), client.parentSpanId());
        assertEquals("POST", client.name());
        assertEquals("201", client.attribute("http.response.status_code"));
        assertEquals("127.0.0.1", client.attribute("server.address"));
        ReceivedSpan record = named(trace, "toolgate.record");
        assertEquals("succeeded", record.attribute("toolgate.status"));
        assertEquals(objectId, record.attribute("toolgate.target_object_id"));
        assertTrue(record.events().stream().anyMatch(e -> e.name().equals("toolgate.status_changed")
                && "succeeded".equals(e.attributes().get("toolgate.status.to"))), record.toString());
        for (ReceivedSpan span : List.of(server, tool, capture, attempt, client, record)) {
            assertEquals(key, span.attribute("toolgate.operation_key"), span.name());
            assertEquals("acme", span.attribute("toolgate.tenant"), span.name());
            assertEquals("1c", span.attribute("toolgate.target"), span.name());
            assertEquals("invoice.create", span.attribute("toolgate.operation"), span.name());
        }
        assertEquals("toolgate", server.resource().get("service.name"));
    }

    @Test
    void aLostAnswerShowsOnTheClientSpanAndTheReconcileRunIsATraceOfItsOwnLinkedToTheOperations() throws Exception {
        String key = "test:invoice.create:trace-lost-" + UUID.randomUUID() + ":v1";
        String traceId = newTraceId();
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        Agent agent = new Agent(gateway.baseUrl());
        Agent.Answer lost = agent.send(agent.operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .header("traceparent", "00-" + traceId + "-" + AGENT_SPAN + "-01")
                .POST(HttpRequest.BodyPublishers.ofString(Agent.invoice("order-trace-2", 5000))));
        assertEquals(202, lost.status(), lost.body());
        List<ReceivedSpan> call = receiver.awaitSpans(spans -> has(spans, traceId, "execute_tool invoice.create"), EXPORTED)
                .stream().filter(s -> s.traceId().equals(traceId)).toList();
        ReceivedSpan client = kind(call, "CLIENT");
        assertEquals("connection_lost", client.attribute("error.type"));
        assertEquals("lost", client.attribute("toolgate.outcome"));
        assertEquals("ERROR", client.statusCode());
        assertEquals("unknown", named(call, "toolgate.record").attribute("toolgate.status"));
        ReceivedSpan capture = named(call, "toolgate.capture");

        startReconcileRun();

        // the run's own root span, not any run's: a run ends, and is exported, after its items (a batch later, at times)
        List<ReceivedSpan> spans = receiver.awaitSpans(all -> all.stream().anyMatch(s -> s.name().equals("toolgate.reconcile_item")
                && key.equals(s.attribute("toolgate.operation_key")) && has(all, s.traceId(), "toolgate.reconcile")), EXPORTED);
        ReceivedSpan item = spans.stream().filter(s -> s.name().equals("toolgate.reconcile_item") && key.equals(s.attribute("toolgate.operation_key")))
                .findFirst().orElseThrow(() -> new AssertionError("no reconcile item for " + key));
        assertFalse(item.traceId().equals(traceId), "the run is a trace of its own");
        assertEquals(1, item.links().size(), item.toString());
        assertEquals(traceId, item.links().get(0).traceId(), "linked to the agent's trace");
        assertEquals(capture.spanId(), item.links().get(0).spanId(), "at the span that captured the operation");
        assertEquals("found", item.attribute("toolgate.outcome"));
        List<ReceivedSpan> run = spans.stream().filter(s -> s.traceId().equals(item.traceId())).toList();
        ReceivedSpan runSpan = named(run, "toolgate.reconcile");
        assertEquals("", runSpan.parentSpanId(), "a run is nobody's child");
        assertEquals(runSpan.spanId(), item.parentSpanId());
        List<ReceivedSpan> ofThisOperation = run.stream().filter(s -> key.equals(s.attribute("toolgate.operation_key"))).toList();
        ReceivedSpan lookup = named(ofThisOperation, "toolgate.lookup");
        assertEquals("found", lookup.attribute("toolgate.outcome"));
        assertEquals(key, lookup.attribute("toolgate.operation_key"));
        assertEquals("succeeded", item.attribute("toolgate.status"), "the item's span shows the row as its chunk's record left it");
        assertEquals(runSpan.spanId(), named(run, "toolgate.record_lookups").parentSpanId(), "the chunk's answers recorded together");
        ReceivedSpan lookupRequest = run.stream().filter(s -> s.kind().equals("CLIENT") && s.parentSpanId().equals(lookup.spanId()))
                .findFirst().orElseThrow(() -> new AssertionError("no client span under the look-up: " + run));
        assertEquals(key, lookupRequest.attribute("toolgate.operation_key"));
        assertEquals("GET", lookupRequest.name());
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "found, not sent again");
    }

    @Test
    void invoicesLookedUpInOneRequestAreOneLookUpSpanOfTheRunLinkedToEachItem() throws Exception {
        List<String> keys = List.of("test:invoice.create:trace-shared-a-" + UUID.randomUUID() + ":v1",
                "test:invoice.create:trace-shared-b-" + UUID.randomUUID() + ":v1");
        Agent agent = new Agent(gateway.baseUrl());
        for (String key : keys) {
            oneC.arm("1c", key, "drop_response_after_commit", 1);
            assertEquals(202, agent.submit(key, Agent.invoice("order-" + key.hashCode(), 5000)).status(), key);
        }

        startReconcileRun();

        List<ReceivedSpan> spans = receiver.awaitSpans(all -> keys.stream().allMatch(key -> all.stream().anyMatch(
                s -> s.name().equals("toolgate.reconcile_item") && key.equals(s.attribute("toolgate.operation_key"))
                        && has(all, s.traceId(), "toolgate.reconcile"))), EXPORTED);
        List<ReceivedSpan> items = keys.stream().map(key -> spans.stream().filter(s -> s.name().equals("toolgate.reconcile_item")
                && key.equals(s.attribute("toolgate.operation_key"))).findFirst().orElseThrow()).toList();
        assertEquals(items.get(0).traceId(), items.get(1).traceId(), "one run");
        List<ReceivedSpan> run = spans.stream().filter(s -> s.traceId().equals(items.get(0).traceId())).toList();
        ReceivedSpan shared = run.stream().filter(s -> s.name().equals("toolgate.lookup") && s.links().size() == 2).findFirst()
                .orElseThrow(() -> new AssertionError("no look-up span linked to both items: " + run));
        assertEquals(named(run, "toolgate.reconcile").spanId(), shared.parentSpanId(), "the run's step");
        assertEquals(items.stream().map(ReceivedSpan::spanId).sorted().toList(),
                shared.links().stream().map(ReceivedSpan.Link::spanId).sorted().toList(), "linked to each item's span");
        assertEquals("2", shared.attribute("toolgate.items"));
        assertEquals("found", shared.attribute("toolgate.outcome"));
        assertEquals("invoice.create", shared.attribute("toolgate.operation"));
        assertEquals(1, run.stream().filter(s -> s.kind().equals("CLIENT") && s.parentSpanId().equals(shared.spanId())).count(),
                "one request for both");
        for (int i = 0; i < keys.size(); i++) {
            assertEquals("found", items.get(i).attribute("toolgate.outcome"));
            assertEquals("succeeded", items.get(i).attribute("toolgate.status"));
            assertEquals(1, oneC.creates("1c", Agent.downstream(keys.get(i))), "found, not sent again");
            assertEquals(1, oneC.lookups("1c", Agent.downstream(keys.get(i))), "asked once, with the other");
        }
    }

    @Test
    void aNotificationsLookUpIsASpanOfTheOperationsTraceWithItsReceipt() {
        String key = "test:crm.deal.create:trace-notified-" + UUID.randomUUID() + ":v1";
        String traceId = newTraceId();
        oneC.arm("bitrix24", Agent.downstream(key), "drop_response_after_commit", 1);
        Agent agent = new Agent(gateway.baseUrl());
        Agent.Answer lost = agent.send(agent.operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .header("traceparent", "00-" + traceId + "-" + AGENT_SPAN + "-01")
                .POST(HttpRequest.BodyPublishers.ofString("{\"operation\":\"crm.deal.create\",\"target\":\"bitrix24\",\"payload\":"
                        + "{\"title\":\"Сделка trace\",\"amount_minor\":5000,\"currency\":\"RUB\"}}")));
        assertEquals(202, lost.status(), lost.body());
        ReceivedSpan capture = named(receiver.awaitSpans(spans -> has(spans, traceId, "toolgate.capture"), EXPORTED).stream()
                .filter(s -> s.traceId().equals(traceId)).toList(), "toolgate.capture");
        String deal = oneC.effects("bitrix24", Agent.downstream(key)).get(0);

        // the portal's outbound event, as Bitrix24 sends it: the deal's id and the application token
        HttpResponse<String> accepted = McpHttp.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/notifications/bitrix24"))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(
                        "event=ONCRMDEALADD&data%5BFIELDS%5D%5BID%5D=" + deal + "&ts=1764936000&auth%5Bapplication_token%5D="
                                + NOTIFICATION_TOKEN)));
        assertEquals(200, accepted.statusCode(), accepted.body());
        String receipt = McpHttp.json(accepted).getString("receipt");

        List<ReceivedSpan> trace = receiver.awaitSpans(spans -> has(spans, traceId, "toolgate.notification")
                && spans.stream().anyMatch(s -> s.traceId().equals(traceId) && s.name().equals("toolgate.record_lookup")), EXPORTED)
                .stream().filter(s -> s.traceId().equals(traceId)).toList();
        ReceivedSpan notified = named(trace, "toolgate.notification");
        assertEquals(capture.spanId(), notified.parentSpanId(), "in the operation's trace, under the span that captured it");
        assertEquals(receipt, notified.attribute("toolgate.notification.receipt"));
        assertEquals("ONCRMDEALADD", notified.attribute("toolgate.notification.event"));
        assertEquals("found", notified.attribute("toolgate.outcome"));
        assertEquals(key, notified.attribute("toolgate.operation_key"));
        ReceivedSpan lookup = named(trace, "toolgate.lookup");
        assertEquals(notified.spanId(), lookup.parentSpanId(), "the look-up by key is the notification's");
        assertEquals(1, oneC.effects("bitrix24", Agent.downstream(key)).size(), "found, not sent again");
    }

    @Test
    void anAgentsRetryOfAnUnknownOperationIsOneCaptureSpanInItsTrace() {
        String key = "test:invoice.create:trace-retry-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        Agent agent = new Agent(gateway.baseUrl());
        Agent.Answer lost = agent.send(agent.operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .header("traceparent", "00-" + newTraceId() + "-" + AGENT_SPAN + "-01")
                .POST(HttpRequest.BodyPublishers.ofString(Agent.invoice("order-trace-retry", 7000))));
        assertEquals(202, lost.status(), lost.body());

        String retryTrace = newTraceId();
        Agent.Answer retried = agent.send(agent.operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .header("traceparent", "00-" + retryTrace + "-" + AGENT_SPAN + "-01")
                .POST(HttpRequest.BodyPublishers.ofString(Agent.invoice("order-trace-retry", 7000))));
        assertEquals("succeeded", retried.json().getString("status"), retried.body());
        // the tool's span ends last: once it is here, every capture span of the call is too
        List<ReceivedSpan> retry = receiver.awaitSpans(spans -> has(spans, retryTrace, "execute_tool invoice.create"), EXPORTED)
                .stream().filter(s -> s.traceId().equals(retryTrace)).toList();
        List<ReceivedSpan> captures = retry.stream().filter(s -> s.name().equals("toolgate.capture")).toList();
        assertEquals(1, captures.size(), "one capture span for one call: " + captures);
        assertEquals(key, captures.get(0).attribute("toolgate.operation_key"));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "looked up, not sent again");
    }

    @Test
    void aReplacementAgentsResumeRunsInItsOwnTraceUnderTheSameKey() {
        String key = "test:invoice.create:trace-resume-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        Agent first = new Agent(gateway.baseUrl());
        assertEquals(202, first.submit(key, Agent.invoice("order-trace-3", 7000)).status());
        String replacementTrace = newTraceId();

        Agent replacement = new Agent(gateway.baseUrl(), "agent-a");
        Agent.Answer resumed = replacement.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api/v1/operations/" + key + "/resume"))
                .header("traceparent", "00-" + replacementTrace + "-" + AGENT_SPAN + "-01").POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, resumed.status(), resumed.body());

        List<ReceivedSpan> trace = receiver.awaitSpans(spans -> has(spans, replacementTrace, "execute_tool resume_operation")
                        && hasKind(spans, replacementTrace, "SERVER"), EXPORTED)
                .stream().filter(s -> s.traceId().equals(replacementTrace)).toList();
        ReceivedSpan tool = named(trace, "execute_tool resume_operation");
        assertEquals(key, tool.attribute("toolgate.operation_key"));
        assertEquals("invoice.create", tool.attribute("toolgate.operation"));
        assertEquals("succeeded", tool.attribute("toolgate.status"));
        assertEquals("reconcile", named(trace, "toolgate.capture").attribute("toolgate.outcome"), "unknown: looked up, not sent");
        assertEquals(key, named(trace, "toolgate.lookup").attribute("toolgate.operation_key"));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)));
    }

    @Test
    void anMcpToolCallIsAToolExecutionOfTheAgentsTraceWithItsCallId() {
        String key = "test:invoice.create:trace-mcp-" + UUID.randomUUID() + ":v1";
        String traceId = newTraceId();
        JsonObject arguments = Json.createObjectBuilder().add("idempotency_key", key).add("order_id", "order-trace-4")
                .add("amount_minor", 4200).add("currency", "RUB").build();
        // MCP carries the trace context in params._meta (the 2025-11-25 revision)
        JsonObject call = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 17).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", "invoice_create").add("arguments", arguments)
                        .add("_meta", Json.createObjectBuilder().add("traceparent", "00-" + traceId + "-" + AGENT_SPAN + "-01"))).build();
        HttpResponse<String> answer = McpHttp.send(new McpHttp(gateway.baseUrl(), "agent-a").post(call.toString()));
        assertEquals(200, answer.statusCode(), answer.body());

        // the server span ends last, so it is exported last
        List<ReceivedSpan> trace = receiver.awaitSpans(spans -> has(spans, traceId, "POST /mcp"), EXPORTED)
                .stream().filter(s -> s.traceId().equals(traceId)).toList();
        ReceivedSpan server = kind(trace, "SERVER");
        assertEquals("POST /mcp", server.name());
        assertEquals(AGENT_SPAN, server.parentSpanId());
        assertEquals("tools/call", server.attribute("mcp.method.name"));
        assertEquals(key, server.attribute("toolgate.operation_key"));
        ReceivedSpan tool = named(trace, "execute_tool invoice_create");
        assertEquals(server.spanId(), tool.parentSpanId());
        assertEquals("invoice_create", tool.attribute("gen_ai.tool.name"));
        assertEquals("17", tool.attribute("gen_ai.tool.call.id"));
        assertEquals("succeeded", tool.attribute("toolgate.status"));
    }

    @Test
    void aProcessTheJobAdvancesStaysInTheTraceOfTheCallThatRegisteredItDownToItsRequestsToTargets() throws Exception {
        String key = "test:order.prepay:trace-" + UUID.randomUUID() + ":v1";
        String traceId = newTraceId();
        Agent agent = new Agent(gateway.baseUrl());
        Agent.Answer waiting = agent.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api/v1/processes"))
                .header("Idempotency-Key", key).header("Content-Type", "application/json")
                .header("traceparent", "00-" + traceId + "-" + AGENT_SPAN + "-01")
                .POST(HttpRequest.BodyPublishers.ofString("{\"process\":\"order.prepay\",\"payload\":{\"order_id\":\"order-trace-5\","
                        + "\"amount_minor\":4200,\"currency\":\"RUB\"}}")));
        assertEquals(202, waiting.status(), waiting.body());
        assertEquals(traceId, waiting.json().getString("trace_id"));
        Agent approver = new Agent(gateway.baseUrl(), "approver");
        Agent.Answer granted = approver.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api/v1/approvals"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"operation_key\":\"" + key
                        + "/payment\",\"request_hash\":\"" + approver.find(key + "/payment").json().getString("request_hash") + "\"}")));
        assertEquals(201, granted.status(), granted.body());

        Thread.sleep(1_100); // due again (poll-seconds 1): the run's second step sends the rest, with no agent
        startReconcileRun();
        URI process = URI.create(gateway.baseUrl() + "/api/v1/processes?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8));
        Await.await(() -> "completed".equals(agent.send(HttpRequest.newBuilder(process)).json().getString("status")),
                "the job completing the process");
        for (String step : List.of("payment", "invoice", "post")) {
            assertEquals(traceId, agent.find(key + "/" + step).json().getString("trace_id"), step + "'s row names the process's trace");
        }

        // the job's advance ends after its steps' spans, so it may come in a later export than they do: wait for it
        List<ReceivedSpan> trace = receiver.awaitSpans(spans -> has(spans, traceId, "execute_tool invoice.post")
                        && spans.stream().anyMatch(s -> s.traceId().equals(traceId) && s.name().equals("toolgate.process")
                        && "completed".equals(s.attribute("toolgate.outcome"))), EXPORTED)
                .stream().filter(s -> s.traceId().equals(traceId)).toList();
        List<ReceivedSpan> processSpans = trace.stream().filter(s -> s.name().equals("toolgate.process")).toList();
        ReceivedSpan registered = processSpans.stream().filter(s -> s.parentSpanId().equals(kind(trace, "SERVER").spanId())).findFirst()
                .orElseThrow(() -> new AssertionError("no process span under the agent's call: " + processSpans));
        ReceivedSpan advanced = processSpans.stream().filter(s -> s.parentSpanId().equals(registered.spanId())).findFirst()
                .orElseThrow(() -> new AssertionError("the job's advance is not under the registering span: " + processSpans));
        for (ReceivedSpan ofTheProcess : List.of(kind(trace, "SERVER"), registered, advanced)) {
            assertEquals(key, ofTheProcess.attribute("toolgate.operation_key"), ofTheProcess.name() + ": the process's, not a step's");
        }
        assertEquals("completed", advanced.attribute("toolgate.outcome"));
        for (String step : List.of("payment", "invoice", "post")) {
            assertTrue(trace.stream().anyMatch(s -> s.name().startsWith("execute_tool ") && s.parentSpanId().equals(advanced.spanId())
                    && (key + "/" + step).equals(s.attribute("toolgate.operation_key"))), step + " sent under the job's advance");
            assertTrue(trace.stream().anyMatch(s -> s.kind().equals("CLIENT") && (key + "/" + step).equals(s.attribute("toolgate.operation_key"))),
                    step + ": its request to the target, whose traceparent is its client span's, in the process's trace");
        }
    }

    @Test
    void noExportedSpanHoldsAPayloadValueOrAToken() {
        String marker = "payload-value-" + UUID.randomUUID();
        String key = "test:invoice.create:trace-secret-" + UUID.randomUUID() + ":v1";
        Agent agent = new Agent(gateway.baseUrl());
        assertEquals(201, agent.submit(key, Agent.invoiceToPerson(marker, 987654321)).status());
        receiver.awaitSpans(spans -> spans.stream().anyMatch(s -> s.kind().equals("SERVER") && key.equals(s.attribute("toolgate.operation_key"))),
                EXPORTED);
        receiver.awaitQuiet(Duration.ofSeconds(1), EXPORTED);
        String exported = receiver.exportedText();
        assertTrue(exported.contains(key), "the scan read the exported spans");
        for (String secret : List.of(marker, "987654321", Agent.PERSON_INN, dev.toolgate.it.support.Credentials.token(gateway.baseUrl(), "agent-a"))) {
            assertFalse(exported.contains(secret), "exported spans hold " + secret.substring(0, 4) + "…");
        }
    }

    private void startReconcileRun() {
        Agent.Answer run = new Agent(gateway.baseUrl(), "operator").send(HttpRequest.newBuilder(
                URI.create(gateway.baseUrl() + "/api/v1/reconciliations")).POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(202, run.status(), run.body());
    }

    static String newTraceId() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    private static boolean has(List<ReceivedSpan> spans, String traceId, String name) {
        return spans.stream().anyMatch(s -> s.traceId().equals(traceId) && s.name().equals(name));
    }

    private static boolean hasKind(List<ReceivedSpan> spans, String traceId, String kind) {
        return spans.stream().anyMatch(s -> s.traceId().equals(traceId) && s.kind().equals(kind));
    }

    static ReceivedSpan named(List<ReceivedSpan> spans, String name) {
        return spans.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans.stream().map(ReceivedSpan::name).toList()));
    }

    static ReceivedSpan kind(List<ReceivedSpan> spans, String kind) {
        return spans.stream().filter(s -> s.kind().equals(kind)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " span in " + spans.stream().map(ReceivedSpan::name).toList()));
    }
}
