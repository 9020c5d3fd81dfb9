package dev.toolgate.launcher;

import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Something to look at in the console on a journal with nothing of tenant {@code demo} yet: the four cases
 * {@link #make} lists, each made through the API as any agent's, with the simulators' faults armed where a real
 * system would have misbehaved. {@code -Dtoolgate.demo-work=false} leaves the journal empty.
 */
public final class DemoWork {

    public static final String AWAITING_APPROVAL = "demo:payment.refund:claim-1001:v1";
    static final String DUPLICATE_FOUND = "demo:payment.refund:claim-1002:v1";
    static final String BEING_RECONCILED = "demo:invoice.create:order-1003:v1";
    static final String FINISHED_PROCESS = "demo:order.fulfil:order-1004:v1";

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
    private final String gateway;
    private final String simulators;
    private final Map<String, String> tokens;

    DemoWork(String gateway, String simulators, Map<String, String> tokens) {
        this.gateway = gateway;
        this.simulators = simulators;
        this.tokens = tokens;
    }

    static boolean journalIsEmpty(String jdbcUrl) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl, "postgres", "postgres");
             ResultSet any = c.createStatement().executeQuery("SELECT EXISTS (SELECT 1 FROM agent_operation_log WHERE tenant = 'demo')")) {
            return any.next() && !any.getBoolean(1);
        }
    }

    /** Makes the four; returns a line for each, to print. */
    List<String> make() throws IOException, InterruptedException {
        SimulatorClient faults = new SimulatorClient(simulators);

        String claim = payment("claim 1001", "4000.00");
        expect(202, submit(AWAITING_APPROVAL, refund(claim, 150_000, "Возврат по претензии 1001")), AWAITING_APPROVAL);

        String other = payment("claim 1002", "3000.00");
        String refund = refund(other, 90_000, "Возврат по претензии 1002");
        expect(202, submit(DUPLICATE_FOUND, refund), DUPLICATE_FOUND);
        expect(201, send("demo-approver", "POST", "/api/v1/approvals", "{\"operation_key\":\"" + DUPLICATE_FOUND
                + "\",\"note\":\"demo: claim checked\"}"), "the approval of " + DUPLICATE_FOUND);
        yooKassa("refunds", "{\"payment_id\":\"" + other + "\",\"amount\":{\"value\":\"900.00\",\"currency\":\"RUB\"},"
                + "\"description\":\"made by hand at YooKassa\",\"metadata\":{\"gw_key\":\"demo/" + DUPLICATE_FOUND + "\"}}");
        faults.arm("yookassa", "demo/" + DUPLICATE_FOUND, "drop_response_after_commit", 1);
        expect(202, submit(DUPLICATE_FOUND, refund), DUPLICATE_FOUND); // its answer lost: the job finds two refunds

        faults.arm("1c", "demo/" + BEING_RECONCILED, "drop_response_after_commit", 1);
        faults.armStatus("1c", "demo/" + BEING_RECONCILED, "GET", 503, 40); // and 1C's look-ups fail for a while
        expect(202, submit(BEING_RECONCILED, "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"order-1003\","
                + "\"amount_minor\":125000,\"currency\":\"RUB\"}}"), BEING_RECONCILED);

        String order = "{\"process\":\"order.fulfil\",\"payload\":{\"order_id\":\"order-1004\",\"amount_minor\":210000,\"currency\":\"RUB\"}}";
        expect(202, start(FINISHED_PROCESS, order), FINISHED_PROCESS); // its payment step awaits approval
        expect(201, send("demo-approver", "POST", "/api/v1/approvals", "{\"operation_key\":\"" + FINISHED_PROCESS
                + "/payment\",\"note\":\"demo: order paid on delivery\"}"), "the approval of " + FINISHED_PROCESS + "/payment");
        expect(200, start(FINISHED_PROCESS, order), FINISHED_PROCESS);

        return List.of(
                AWAITING_APPROVAL + "  awaits approval (Approvals)",
                DUPLICATE_FOUND + "  two refunds carry its key: the reconcile job escalates it within a minute (Escalations)",
                BEING_RECONCILED + "  unknown while 1C's look-ups fail (Search, standing: unfinished)",
                FINISHED_PROCESS + "  a process finished: invoice, posting, deal, payment (Processes)");
    }

    private HttpResponse<String> submit(String key, String body) throws IOException, InterruptedException {
        return asAgent("/api/v1/operations", key, body);
    }

    private HttpResponse<String> start(String key, String body) throws IOException, InterruptedException {
        return asAgent("/api/v1/processes", key, body);
    }

    private HttpResponse<String> asAgent(String path, String key, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(gateway + path)).header("Authorization", "Bearer " + tokens.get("demo-agent"))
                .header("Idempotency-Key", key).header("Content-Type", "application/json")
                .timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> send(String principal, String method, String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(gateway + path)).header("Authorization", "Bearer " + tokens.get(principal))
                .header("Content-Type", "application/json").timeout(TIMEOUT).method(method, HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String refund(String paymentId, long amountMinor, String reason) {
        return "{\"operation\":\"payment.refund\",\"target\":\"yookassa\",\"payload\":{\"payment_id\":\"" + paymentId
                + "\",\"amount_minor\":" + amountMinor + ",\"currency\":\"RUB\",\"reason\":\"" + reason + "\"}}";
    }

    /** A captured payment made at YooKassa directly, as a shop's checkout would have: what the refunds refund. */
    private String payment(String description, String value) throws IOException, InterruptedException {
        return yooKassa("payments", "{\"amount\":{\"value\":\"" + value + "\",\"currency\":\"RUB\"},\"capture\":true,\"description\":\""
                + description + "\"}").getString("id");
    }

    private JsonObject yooKassa(String resource, String body) throws IOException, InterruptedException {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(Simulators.yooKassaUrl(simulators) + resource))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((Simulators.YOOKASSA_SHOP_ID + ":"
                        + Simulators.YOOKASSA_SECRET_KEY).getBytes(StandardCharsets.UTF_8)))
                .header("Idempotence-Key", UUID.randomUUID().toString()).header("Content-Type", "application/json")
                .timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        expect(200, answer, "YooKassa's " + resource);
        return Json.createReader(new StringReader(answer.body())).readObject();
    }

    private static void expect(int status, HttpResponse<String> answer, String what) throws IOException {
        if (answer.statusCode() != status) {
            throw new IOException("demo work: " + what + " answered " + answer.statusCode() + ", not " + status + ": " + answer.body());
        }
    }
}
