package dev.toolgate.benchmark;

import dev.toolgate.benchmark.peers.OneCInvoice;
import dev.toolgate.simulator.Simulators;
import jakarta.json.Json;

import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** The HTTP calls the benchmark makes, each checked for the answer it must get (a wrong answer is no measurement). */
final class Requests {

    static final String TENANT = "bench";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final String simulatorsUrl;

    Requests(String simulatorsUrl) {
        this.simulatorsUrl = simulatorsUrl;
    }

    void submit(String gatewayUrl, String token, String key, int expected) throws Exception {
        check(HTTP.send(HttpRequest.newBuilder(URI.create(gatewayUrl + "/api/v1/operations"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":"
                        + payload() + "}")).build(), HttpResponse.BodyHandlers.ofString()), expected);
    }

    /** The gateway's span-export counters ({@code toolgate_trace_spans_*} of {@code /api/metrics}), as one line. */
    String spanExports(String gatewayUrl, String operatorToken) throws Exception {
        HttpResponse<String> metrics = check(HTTP.send(HttpRequest.newBuilder(URI.create(gatewayUrl + "/api/metrics"))
                .header("Authorization", "Bearer " + operatorToken).build(), HttpResponse.BodyHandlers.ofString()), 200);
        return metrics.body().lines().filter(l -> l.startsWith("toolgate_trace_spans_")).reduce((a, b) -> a + ", " + b).orElse("no span counters");
    }

    /**
     * The same invoice as {@link #submit}, as an MCP agent sends it: {@code tools/call} of {@code invoice_create}
     * at {@code /mcp}; a replay must say it is one.
     */
    void callTool(String gatewayUrl, String token, String key, boolean replay) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"invoice_create\","
                + "\"arguments\":{\"idempotency_key\":\"" + key + "\",\"order_id\":\"order-bench\",\"amount_minor\":125000,"
                + "\"currency\":\"RUB\"}}}";
        HttpResponse<String> answer = check(HTTP.send(HttpRequest.newBuilder(URI.create(gatewayUrl + "/mcp"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()), 200);
        String expected = "\"replayed\":" + replay;
        if (!answer.body().contains("\"outcome\":\"succeeded\"") || !answer.body().contains(expected)) {
            throw new IllegalStateException("/mcp: expected a succeeded result with " + expected + ", got " + answer.body());
        }
    }

    /** The document the 1C adapter sends for {@code downstreamKey}, straight to the simulator. */
    void direct(String downstreamKey) throws Exception {
        check(HTTP.send(OneCInvoice.create(simulatorsUrl, downstreamKey), HttpResponse.BodyHandlers.ofString()), 201);
    }

    /** The deal the Bitrix24 adapter makes for {@code downstreamKey}, straight to the simulated portal. */
    void directDeal(String downstreamKey) throws Exception {
        String body = Json.createObjectBuilder().add("fields", Json.createObjectBuilder().add("TITLE", "Сделка").add("OPPORTUNITY", 9900)
                .add("CURRENCY_ID", "RUB").add("ORIGINATOR_ID", "agent-gw").add("ORIGIN_ID", downstreamKey)).build().toString();
        check(HTTP.send(HttpRequest.newBuilder(URI.create(Simulators.bitrix24Url(simulatorsUrl) + "crm.deal.add.json"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString()), 200);
    }

    /** The 1C adapter's look-up of {@code downstreamKey}, straight to the simulator: found or not, an answer. */
    void lookUpDirect(String downstreamKey) throws Exception {
        String filter = URLEncoder.encode(Simulators.ONE_C_KEY_REQUISITE + " eq '" + downstreamKey.replace("'", "''") + "'",
                StandardCharsets.UTF_8).replace("+", "%20");
        check(HTTP.send(HttpRequest.newBuilder(URI.create(OneCInvoice.invoices(simulatorsUrl) + "?$format=json&$filter=" + filter
                        + "&$select=Ref_Key,Number,Posted,DeletionMark"))
                .header("Authorization", OneCInvoice.authorization()).GET().build(), HttpResponse.BodyHandlers.ofString()), 200);
    }

    /**
     * The same invoice through a peer ({@code peers}): a POST of the agent's payload to {@code url} keyed by
     * {@code keyHeader} (Idempotency-Key for the DBOS front, Restate's idempotency-key); 200 and a document's reference.
     */
    void peer(String url, String keyHeader, String key) throws Exception {
        HttpResponse<String> answer = check(HTTP.send(HttpRequest.newBuilder(URI.create(url)).header(keyHeader, key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(payload())).build(),
                HttpResponse.BodyHandlers.ofString()), 200);
        if (!answer.body().contains("ref") || !answer.body().contains("number")) { // Restate's answer quotes the document again
            throw new IllegalStateException(url + ": expected the invoice's reference, got " + answer.body());
        }
    }

    /** The floor endpoint that does nothing. */
    void ping(String gatewayUrl) throws Exception {
        check(HTTP.send(HttpRequest.newBuilder(URI.create(gatewayUrl + "/floor/ping")).build(),
                HttpResponse.BodyHandlers.ofString()), 200);
    }

    /** The floor endpoint that reads one journal row by its primary key. */
    void read(String gatewayUrl, String key) throws Exception {
        check(HTTP.send(HttpRequest.newBuilder(URI.create(gatewayUrl + "/floor/read?tenant=" + TENANT + "&key="
                + URLEncoder.encode(key, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString()), 200);
    }

    /** Creates a principal of tenant bench with {@code role}; returns its token. */
    String token(String gatewayUrl, String adminToken, String principal, String role) throws Exception {
        HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create(gatewayUrl + "/api/v1/principals"))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"principal_id\":\"" + principal + "\",\"tenant\":\"" + TENANT
                        + "\",\"roles\":[\"" + role + "\"]}")).build(), HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() / 100 != 2) {
            throw new IllegalStateException("creating " + principal + ": " + created.statusCode() + " " + created.body());
        }
        return Json.createReader(new StringReader(created.body())).readObject().getString("token");
    }

    /** Starts a reconcile run on that instance now (the operator's POST /api/v1/reconciliations). */
    void reconcile(String gatewayUrl, String operatorToken) throws Exception {
        check(HTTP.send(HttpRequest.newBuilder(URI.create(gatewayUrl + "/api/v1/reconciliations"))
                .header("Authorization", "Bearer " + operatorToken).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString()), 202);
    }

    static String payload() {
        return "{\"order_id\":\"order-bench\",\"amount_minor\":125000,\"currency\":\"RUB\"}";
    }

    /** A {@code crm.deal.create}'s payload. */
    static String dealPayload() {
        return "{\"title\":\"Сделка\",\"amount_minor\":990000,\"currency\":\"RUB\"}";
    }

    private static HttpResponse<String> check(HttpResponse<String> answer, int expected) {
        if (answer.statusCode() != expected) {
            throw new IllegalStateException(answer.request().uri() + ": expected " + expected + ", got " + answer.statusCode()
                    + ": " + answer.body());
        }
        return answer;
    }
}
