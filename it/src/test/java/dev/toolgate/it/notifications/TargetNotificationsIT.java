package dev.toolgate.it.notifications;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.checker.Verdict;
import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.McpHttp;
import dev.toolgate.it.support.RunHistory;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Targets' notifications against a real gateway and simulators that send them as YooKassa and Bitrix24 do
 * (docs/notifications.md). The reconcile job is as good as off here (a run every 10 minutes): an operation that
 * settles did so on a look-up a notification started — or on the agent's own call, which this suite says apart by
 * the actor the journal names. Every run is judged by the fault suites' checker, from what the targets received and
 * what the journal holds; what a notification may never do (settle on its word, store a refusal) is read from the
 * journal itself.
 */
@Lane(3)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TargetNotificationsIT {

    private static final String DATABASE = "notifications";
    /** How long the simulated shop keeps a payment pending (the buyer in 3-D Secure). */
    private static final long PENDING_MS = 3_000;
    private static Simulators simulators;
    private static SimulatorClient targets;
    private static GatewayProcess gateway;

    @BeforeAll
    static void start() throws Exception {
        // simulators of this suite's own: their notifications reach this gateway and no other suite's
        simulators = Simulators.start(0);
        targets = new SimulatorClient(simulators.baseUrl());
        Map<String, String> config = LocalStack.gatewayConfig(TestStack.newDatabase(DATABASE), simulators.httpsBaseUrl(),
                simulators.tls().caBundle());
        config.put("toolgate.admin.bootstrap-token", TestStack.adminToken());
        config.put("toolgate.approval.required-for", "none");
        config.put("toolgate.reconcile.interval-seconds", "600");
        config.put("toolgate.reconcile.settle-seconds", "2");
        config.put("toolgate.reconcile.max-backoff-seconds", "2");
        config.put("toolgate.target.yookassa.notifications.sources", "127.0.0.1/32");
        config.put("toolgate.target.bitrix24.notifications.application-token", Simulators.BITRIX24_APPLICATION_TOKEN);
        config.put("toolgate.target.bitrix24.notifications.sources", "127.0.0.1/32");
        config.put("toolgate.notifications.per-second", "20");
        config.put("toolgate.notifications.burst", "40");
        gateway = TestStack.readyGateway(config, "notifications-gateway");
        for (String event : List.of("payment.succeeded", "payment.waiting_for_capture", "payment.canceled", "refund.succeeded")) {
            targets.subscribeYooKassa(event, gateway.baseUrl() + "/notifications/yookassa");
        }
        for (String event : List.of("ONCRMDEALADD", "ONCRMDEALUPDATE")) {
            targets.bindBitrix24(event, gateway.baseUrl() + "/notifications/bitrix24");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
        simulators.close();
    }

    /**
     * A payment pending for 3 s and a deal whose response was lost, each with its notification and with the
     * notification lost: with one, the journal has it within a second of the effect on one look-up, and no agent call
     * is needed; without, only the agent's polling (as Retry-After tells it) settles it. Prints the figures.
     */
    @Test
    @Order(1)
    void aPendingPaymentAndALostDealSettleOnTheirNotificationOnOneLookUpWithNoAgentCall() throws Exception {
        RunHistory run = new RunHistory(targets);
        List<Case> announced = new ArrayList<>();
        List<Case> unannounced = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            announced.add(pendingPayment(run, "with-" + i));
            announced.add(lostDeal(run, "with-" + i));
        }
        for (Case c : announced) {
            Agent.Answer first = run.call(c.key, () -> agent().submit(c.key, c.body));
            assertEquals(202, first.status(), c.key + ": " + first.body());
            assertEquals("2", first.header("Retry-After"), "the target announces: the agent is told to look again soon");
            assertTrue(first.json().getString("detail").contains("as soon as the target announces it"), first.body());
            c.answeredAt = Instant.now();
        }
        for (Case c : announced) {
            awaitSettled(c.key, Duration.ofSeconds(20));
            assertEquals("notification", settledBy(c.key), c.key + " was settled by the look-up its notification started");
            assertEquals(1, events(c.key, "reconciled"), "one look-up by key: " + journal(c.key));
        }
        // the same, with every notification lost: the agent polls as it is told
        targets.armNotification("yookassa", "payment.succeeded", "lose", 3, 0);
        targets.armNotification("bitrix24", "ONCRMDEALADD", "lose", 3, 0);
        for (int i = 0; i < 3; i++) {
            unannounced.add(pendingPayment(run, "without-" + i));
            unannounced.add(lostDeal(run, "without-" + i));
        }
        ExecutorService agents = Executors.newFixedThreadPool(6);
        List<Future<?>> polls = new ArrayList<>();
        for (Case c : unannounced) {
            polls.add(agents.submit(() -> pollUntilDone(run, c)));
        }
        for (Future<?> poll : polls) {
            poll.get();
        }
        agents.shutdown();
        for (Case c : announced) { // the agent's call after the fact: the settled answer, replayed
            Agent.Answer again = run.call(c.key, () -> agent().submit(c.key, c.body));
            assertEquals(200, again.status(), again.body());
            assertEquals("true", again.header("Idempotent-Replayed"));
        }

        Verdict verdict = run.judge(() -> TestStack.connect(DATABASE));
        assertTrue(verdict.clean(), verdict.report());
        System.out.println("notifications: " + figures("with", announced) + "; " + figures("without (agent polls)", unannounced)
                + "; " + verdict.report());
        for (Case c : unannounced) {
            assertTrue(!"notification".equals(settledBy(c.key)), "a lost notification settles nothing: " + c.key);
        }
    }

    /**
     * Duplicated, delayed, reordered and early notifications: each changes nothing by itself. The duplicate finds the
     * operation settled and is refused without a trace in the journal; the early one (YooKassa announces a success its
     * API does not show yet) starts a look-up that finds the payment pending, and the real one settles it.
     */
    @Test
    @Order(2)
    void duplicatedDelayedReorderedAndEarlyNotificationsSettleOnlyOnTheLookUp() throws Exception {
        RunHistory run = new RunHistory(targets);
        Case duplicated = pendingPayment(run, "duplicated");
        targets.armNotification("yookassa", "payment.succeeded", "duplicate", 1, 0);
        settleAlone(run, duplicated);
        awaitQuiet();
        assertEquals(1, events(duplicated.key, "notified"), "the duplicate stores nothing: " + journal(duplicated.key));

        Case delayed = lostDeal(run, "delayed");
        targets.armNotification("bitrix24", "ONCRMDEALADD", "delay", 1, 1_500);
        settleAlone(run, delayed);

        Case reordered = pendingPayment(run, "reordered");
        targets.armNotification("yookassa", "payment.succeeded", "reorder", 1, 1_000);
        settleAlone(run, reordered);

        Case early = pendingPayment(run, "early");
        targets.armNotification("yookassa", "payment.succeeded", "early", 1, 0);
        settleAlone(run, early);
        assertEquals(2, events(early.key, "notified"), journal(early.key).toString());
        assertTrue(journal(early.key).stream().anyMatch(e -> e.startsWith("reconciled notification: pending")),
                "the early notification's look-up found the payment pending and settled nothing: " + journal(early.key));

        Verdict verdict = run.judge(() -> TestStack.connect(DATABASE));
        assertTrue(verdict.clean(), verdict.report());
        Map<String, Integer> counted = notificationCounts();
        assertTrue(counted.getOrDefault("yookassa settled", 0) >= 1, "the duplicate was counted as a refusal: " + counted);
    }

    /**
     * Notifications that must settle nothing and store nothing: from another network (the simulators' own foreign
     * source), forged by a stranger for an object Toolgate never sent, a Bitrix24 event with a wrong or no token, bodies
     * that are not the target's format — and one that claims a payment succeeded that the target never made: its
     * look-up finds nothing, and the operation is settled only by the agent's own retry, once.
     */
    @Test
    @Order(3)
    void forgedForeignAndMalformedNotificationsSettleNothingAndStoreNothing() throws Exception {
        RunHistory run = new RunHistory(targets);
        long rowsBefore = TestStack.journalRows(DATABASE);
        long eventsBefore = journalEvents();

        Case foreign = pendingPayment(run, "foreign");
        targets.armNotification("yookassa", "payment.succeeded", "foreign_source", 1, 0);
        Agent.Answer first = run.call(foreign.key, () -> agent().submit(foreign.key, foreign.body));
        assertEquals(202, first.status(), first.body());
        SimulatorClient.SentNotification refused = awaitNotification("yookassa", first.operation().getString("target_object_id"));
        assertEquals("127.0.0.2", refused.source());
        assertEquals(403, refused.deliveredStatus(), "the gateway refused the foreign source: " + refused);
        assertEquals(0, events(foreign.key, "notified"), "nothing of a refused notification is stored: " + journal(foreign.key));
        pollUntilDone(run, foreign); // the agent's retry settles it, as without notifications

        assertEquals(200, forgedYooKassa("127.0.0.1", "payment.succeeded", UUID.randomUUID().toString(), null).status,
                "a stranger's notification from the right network is answered like any other");
        assertEquals(403, forgedYooKassa("127.0.0.2", "payment.succeeded", UUID.randomUUID().toString(), null).status);
        assertEquals(403, forgedBitrix24("127.0.0.1", "not-the-token", "77").status);
        assertEquals(403, forgedBitrix24("127.0.0.1", null, "77").status);
        assertEquals(400, post("127.0.0.1", "/notifications/yookassa", "application/json", "{\"type\":\"notification\"}").status);
        assertEquals(415, post("127.0.0.1", "/notifications/yookassa", "text/plain", "payment.succeeded").status);
        assertEquals(400, post("127.0.0.1", "/notifications/bitrix24", "application/x-www-form-urlencoded",
                "event=ONCRMDEALADD&auth%5Bapplication_token%5D=" + Simulators.BITRIX24_APPLICATION_TOKEN).status);
        assertEquals(404, post("127.0.0.1", "/notifications/1c", "application/json", "{}").status);
        assertEquals(405, send("127.0.0.1", "GET /notifications/yookassa HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").status);

        // a success announced for a payment the target never made (its request was reset before YooKassa did anything)
        Case never = new Case(key("never"), payment("never"));
        run.plan(never.key, "yookassa", false);
        run.arm(never.key, "reset_before_commit", 1, match -> targets.arm("yookassa", match, "reset_before_commit", 1));
        Agent.Answer unknown = run.call(never.key, () -> agent().submit(never.key, never.body));
        assertEquals(202, unknown.status(), unknown.body());
        assertEquals(200, forgedYooKassa("127.0.0.1", "payment.succeeded", UUID.randomUUID().toString(),
                Agent.downstream(never.key)).status);
        awaitEvent(never.key, "notified");
        awaitQuiet();
        assertTrue(!"succeeded".equals(status(never.key)), "a notification alone settles nothing: " + journal(never.key));
        assertTrue(journal(never.key).stream().anyMatch(e -> e.startsWith("reconciled notification: absent")), journal(never.key).toString());
        pollUntilDone(run, never); // the agent's retry, after the settle window: sent once, made once

        awaitQuiet();
        assertEquals(rowsBefore + 2, TestStack.journalRows(DATABASE), "only the two operations' rows");
        assertEquals(eventsBefore, journalEvents() - events(foreign.key) - events(never.key),
                "no event but the two operations' own: no refusal is stored");
        Verdict verdict = run.judge(() -> TestStack.connect(DATABASE));
        assertTrue(verdict.clean(), verdict.report());
        Map<String, Integer> counted = notificationCounts();
        for (String refusal : List.of("yookassa refused_source", "bitrix24 refused_token", "yookassa malformed",
                "bitrix24 malformed", "yookassa not_found")) {
            assertTrue(counted.getOrDefault(refusal, 0) >= 1, refusal + " counted: " + counted);
        }
    }

    /**
     * An MCP agent's pending payment becomes a task that is {@code working} while the buyer confirms, polled no faster
     * than the notice wait, and {@code completed} on the first {@code tasks/get} after its notification's look-up.
     */
    @Test
    @Order(4)
    void anMcpTaskCompletesAsSoonAsTheNotificationsLookUpSettlesIt() throws Exception {
        RunHistory run = new RunHistory(targets);
        String key = key("mcp-task");
        run.plan(key, "yookassa", false);
        run.arm(key, "pending_then_succeeded", 1, match -> targets.armPending("yookassa", match, PENDING_MS));
        McpHttp mcp = new McpHttp(gateway.baseUrl(), "agent-a");
        JsonObject arguments = Json.createObjectBuilder().add("idempotency_key", key).add("order_id", "order-mcp-notify")
                .add("amount_minor", 31900).add("currency", "RUB").add("description", "Заказ через задачу MCP").build();
        JsonObject created = mcp(mcp, 1, "tools/call", McpHttp.toolParams("payment_create", arguments));
        assertEquals("task", created.getString("resultType"), created.toString());
        assertEquals("working", created.getString("status"));
        assertEquals(2_000, created.getJsonNumber("pollIntervalMs").longValue(), "polled at the notice wait: " + created);

        awaitSettled(key, Duration.ofSeconds(20));
        JsonObject done = mcp(mcp, 2, "tasks/get", Json.createObjectBuilder().add("taskId", created.getString("taskId")).build());
        assertEquals("completed", done.getString("status"), done.toString());
        assertEquals("succeeded", done.getJsonObject("result").getJsonObject("structuredContent").getString("outcome"));
        assertEquals("notification", settledBy(key));
        Verdict verdict = run.judge(() -> TestStack.connect(DATABASE));
        assertTrue(verdict.clean(), verdict.report());
    }

    private static JsonObject mcp(McpHttp mcp, int id, String method, JsonObject params) {
        JsonObject tasks = Json.createObjectBuilder().add("extensions", Json.createObjectBuilder()
                .add("io.modelcontextprotocol/tasks", Json.createObjectBuilder())).build();
        java.net.http.HttpResponse<String> answer = McpHttp.send(mcp.modern(id, method, params, tasks));
        assertEquals(200, answer.statusCode(), answer.body());
        return McpHttp.json(answer).getJsonObject("result");
    }

    /**
     * A burst of notifications beyond the target's rate gets 429 with Retry-After, while agents' calls go on. Last: the
     * bucket it empties would hold back the other tests' real notifications.
     */
    @Test
    @Order(5)
    void aBurstOfNotificationsIsRateLimitedAndAgentsAreNotStarved() throws Exception {
        RunHistory run = new RunHistory(targets);
        Case payment = new Case(key("during-burst"), payment("during-burst"));
        run.plan(payment.key, "yookassa", false);
        ExecutorService senders = Executors.newFixedThreadPool(4);
        List<Future<Sent>> burst = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            burst.add(senders.submit(() -> forgedYooKassa("127.0.0.1", "payout.succeeded", UUID.randomUUID().toString(), null)));
        }
        Agent.Answer answer = run.call(payment.key, () -> agent().submit(payment.key, payment.body));
        int limited = 0;
        for (Future<Sent> sent : burst) {
            Sent s = sent.get();
            assertTrue(s.status == 200 || s.status == 429, "ignored or limited: " + s.status);
            if (s.status == 429) {
                limited++;
                assertTrue(s.retryAfter != null, "a 429 says when to send again");
            }
        }
        senders.shutdown();
        assertEquals(201, answer.status(), "an agent's call during the burst is served: " + answer.body());
        assertTrue(limited > 0, "120 notifications at once exceed a burst of 40");
        Verdict verdict = run.judge(() -> TestStack.connect(DATABASE));
        assertTrue(verdict.clean(), verdict.report());
    }

    // --- cases

    private static final class Case {
        final String key;
        final String body;
        Instant answeredAt;
        boolean pending;

        Case(String key, String body) {
            this.key = key;
            this.body = body;
        }
    }

    private Case pendingPayment(RunHistory run, String name) {
        Case c = new Case(key("pay-" + name), payment(name));
        c.pending = true;
        run.plan(c.key, "yookassa", false);
        run.arm(c.key, "pending_then_succeeded", 1, match -> targets.armPending("yookassa", match, PENDING_MS));
        return c;
    }

    private Case lostDeal(RunHistory run, String name) {
        Case c = new Case(key("deal-" + name), "{\"operation\":\"crm.deal.create\",\"target\":\"bitrix24\",\"payload\":{\"title\":\"Сделка "
                + name + "\",\"amount_minor\":150000,\"currency\":\"RUB\"}}");
        run.plan(c.key, "bitrix24", false);
        run.arm(c.key, "drop_response_after_commit", 1, match -> targets.arm("bitrix24", match, "drop_response_after_commit", 1));
        return c;
    }

    private static String payment(String name) {
        return "{\"operation\":\"payment.create\",\"target\":\"yookassa\",\"payload\":{\"order_id\":\"order-" + name
                + "\",\"amount_minor\":250000,\"currency\":\"RUB\",\"description\":\"Заказ " + name + "\"}}";
    }

    private static String key(String name) {
        return "test:notify:" + name + "-" + UUID.randomUUID().toString().substring(0, 8) + ":v1";
    }

    /** Calls once, then waits for the journal to settle it with no other call; the settle was a notification's. */
    private void settleAlone(RunHistory run, Case c) throws Exception {
        Agent.Answer first = run.call(c.key, () -> agent().submit(c.key, c.body));
        assertEquals(202, first.status(), first.body());
        c.answeredAt = Instant.now();
        awaitSettled(c.key, Duration.ofSeconds(20));
        assertEquals("notification", settledBy(c.key), journal(c.key).toString());
    }

    /** Calls as an agent told to retry after Retry-After does, until the answer is final. */
    private void pollUntilDone(RunHistory run, Case c) {
        Instant deadline = Instant.now().plusSeconds(60);
        while (Instant.now().isBefore(deadline)) {
            Agent.Answer answer = run.call(c.key, () -> agent().submit(c.key, c.body));
            if (c.answeredAt == null) {
                c.answeredAt = Instant.now();
            }
            if (answer != null && (answer.status() == 200 || answer.status() == 201)) {
                return;
            }
            String after = answer == null ? null : answer.header("Retry-After");
            sleep(after == null ? 1_000 : Long.parseLong(after) * 1_000);
        }
        throw new AssertionError(c.key + " was not settled within 60 s: " + journal(c.key));
    }

    // --- figures

    /** Per group: the median time from the effect to the journal's settled row, and look-ups per settled operation. */
    private String figures(String group, List<Case> cases) {
        List<Long> payments = new ArrayList<>();
        List<Long> deals = new ArrayList<>();
        int lookups = 0;
        for (Case c : cases) {
            // from the capture (the target made it moments after): a lost deal then; a pending payment PENDING_MS later
            Instant effect = c.pending ? capturedAt(c.key).plusMillis(PENDING_MS) : capturedAt(c.key);
            long millis = Duration.between(effect, completedAt(c.key)).toMillis();
            (c.pending ? payments : deals).add(millis);
            lookups += events(c.key, "reconciled");
        }
        return String.format("%s: pending payment settled %d ms after the effect, lost deal %d ms (medians), %.1f look-ups by key per"
                        + " operation",
                group, median(payments), median(deals), lookups / (double) cases.size());
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Long::compare);
        return sorted.isEmpty() ? -1 : sorted.get(sorted.size() / 2);
    }

    private Map<String, Integer> notificationCounts() throws Exception {
        Agent.Answer metrics = new Agent(gateway.baseUrl(), "operator").send(java.net.http.HttpRequest.newBuilder(
                URI.create(gateway.baseUrl() + "/api/metrics")));
        Map<String, Integer> counts = new TreeMap<>();
        for (String line : metrics.body().split("\n")) {
            if (line.startsWith("toolgate_notifications_total{")) {
                String target = line.replaceAll(".*target=\"([^\"]*)\".*", "$1");
                String outcome = line.replaceAll(".*outcome=\"([^\"]*)\".*", "$1");
                counts.put(target + " " + outcome, (int) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        return counts;
    }

    // --- the journal, read directly

    private void awaitSettled(String key, Duration within) {
        Instant deadline = Instant.now().plus(within);
        while (Instant.now().isBefore(deadline)) {
            if ("succeeded".equals(status(key))) {
                return;
            }
            sleep(50);
        }
        throw new AssertionError(key + " not settled within " + within + ": " + journal(key));
    }

    private void awaitEvent(String key, String kind) {
        Instant deadline = Instant.now().plusSeconds(20);
        while (events(key, kind) == 0) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("no " + kind + " event for " + key + ": " + journal(key));
            }
            sleep(50);
        }
    }

    /** The first notification about {@code objectId}, once it was delivered or given up on. */
    private SimulatorClient.SentNotification awaitNotification(String system, String objectId) {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            for (SimulatorClient.SentNotification n : targets.notifications(system)) {
                if (n.objectId().equals(objectId) && !"pending".equals(n.state())) {
                    return n;
                }
            }
            sleep(100);
        }
        throw new AssertionError("no settled notification about " + objectId + ": " + targets.notifications(system));
    }

    /** Until every notification the simulators sent is answered, and a moment for the look-ups queued behind them. */
    private void awaitQuiet() {
        targets.settledNotifications("yookassa", Duration.ofSeconds(30));
        targets.settledNotifications("bitrix24", Duration.ofSeconds(30));
        sleep(1_000);
    }

    private static String status(String key) {
        return one("SELECT status FROM agent_operation_log WHERE operation_key = ?", key);
    }

    private static Instant completedAt(String key) {
        return instant("completed_at", key);
    }

    private static Instant capturedAt(String key) {
        return instant("created_at", key);
    }

    private static Instant instant(String column, String key) {
        return Instant.parse(one("SELECT to_char(" + column + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
                + " FROM agent_operation_log WHERE operation_key = ?", key));
    }

    /** Who wrote the look-up that settled it: the journal's actor of its found reconciled event, or "call" for an attempt. */
    private static String settledBy(String key) {
        String actor = one("SELECT actor FROM operation_event WHERE operation_key = ? AND kind = 'reconciled'"
                + " AND detail LIKE 'found%' ORDER BY id DESC LIMIT 1", key);
        return actor == null ? "call" : actor;
    }

    private static long journalEvents() {
        return Long.parseLong(one("SELECT count(*) FROM operation_event WHERE operation_key <> ?", ""));
    }

    private static int events(String key) {
        return Integer.parseInt(one("SELECT count(*) FROM operation_event WHERE operation_key = ?", key));
    }

    private static int events(String key, String kind) {
        return Integer.parseInt(one("SELECT count(*) FROM operation_event WHERE operation_key = ? AND kind = '" + kind + "'", key));
    }

    /** The operation's events as {@code kind actor: detail}, for what an assertion says and looks for. */
    private static List<String> journal(String key) {
        List<String> events = new ArrayList<>();
        try (Connection c = TestStack.connect(DATABASE); PreparedStatement q = c.prepareStatement(
                "SELECT kind, actor, detail FROM operation_event WHERE operation_key = ? ORDER BY id")) {
            q.setString(1, key);
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    events.add(r.getString(1) + " " + r.getString(2) + ": " + r.getString(3));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return events;
    }

    private static String one(String sql, String key) {
        try (Connection c = TestStack.connect(DATABASE); PreparedStatement q = c.prepareStatement(sql)) {
            q.setString(1, key);
            try (ResultSet r = q.executeQuery()) {
                return r.next() ? r.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    // --- notifications a stranger sends, from a source address of its choosing

    private record Sent(int status, String retryAfter) {
    }

    private Sent forgedYooKassa(String from, String event, String objectId, String keyHint) throws IOException {
        String metadata = keyHint == null ? "{}" : "{\"gw_key\":\"" + keyHint + "\"}";
        return post(from, "/notifications/yookassa", "application/json", "{\"type\":\"notification\",\"event\":\"" + event
                + "\",\"object\":{\"id\":\"" + objectId + "\",\"status\":\"succeeded\",\"metadata\":" + metadata + "}}");
    }

    private Sent forgedBitrix24(String from, String token, String dealId) throws IOException {
        return post(from, "/notifications/bitrix24", "application/x-www-form-urlencoded", "event=ONCRMDEALADD&data%5BFIELDS%5D%5BID%5D="
                + dealId + (token == null ? "" : "&auth%5Bapplication_token%5D=" + token));
    }

    private Sent post(String from, String path, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return send(from, "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + type + "\r\nContent-Length: "
                + bytes.length + "\r\nConnection: close\r\n\r\n" + body);
    }

    /** One HTTP/1.1 exchange over a socket bound to {@code from}: 127.0.0.2 is another source on the same machine. */
    private Sent send(String from, String request) throws IOException {
        URI gatewayUri = URI.create(gateway.baseUrl());
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
            socket.connect(new InetSocketAddress(gatewayUri.getHost(), gatewayUri.getPort()), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            String head = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(head.substring(9, 12));
            String retryAfter = null;
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase(java.util.Locale.ROOT).startsWith("retry-after:")) {
                    retryAfter = line.substring(12).strip();
                }
            }
            return new Sent(status, retryAfter);
        }
    }

    private Agent agent() {
        return new Agent(gateway.baseUrl(), "agent-a");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
