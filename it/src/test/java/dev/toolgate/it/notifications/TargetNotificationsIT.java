package dev.toolgate.it.notifications;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.junit.jupiter.api.function.Executable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Targets' notifications against a real gateway and simulators that send them as YooKassa and Bitrix24 do
 * (docs/notifications.md). The reconcile job is as good as off here (a run every 10 minutes): an operation that
 * settles did so on a look-up a notification started — or on the agent's own call, which this suite says apart by
 * the actor the journal names. Every run is judged by the fault suites' checker, from what the targets received and
 * what the journal holds; what a notification may never do (settle on its word, store a refusal) is read from the
 * journal itself. Then each kind of hostile or malformed input goes to both doors, each with the answer it must get.
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
     * A burst of notifications beyond the target's rate gets 429 with Retry-After, while agents' calls go on. Last (after
     * the hostile sweeps, which have no order of their own): the bucket it empties would hold back the other tests' real
     * notifications, and answer the sweeps' well-formed ones 429.
     */
    @Test
    @Order(Integer.MAX_VALUE)
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
                assertTrue(s.header("Retry-After") != null, "a 429 says when to send again");
            }
        }
        senders.shutdown();
        assertEquals(201, answer.status(), "an agent's call during the burst is served: " + answer.body());
        assertTrue(limited > 0, "120 notifications at once exceed a burst of 40");
        Verdict verdict = run.judge(() -> TestStack.connect(DATABASE));
        assertTrue(verdict.clean(), verdict.report());
    }

    // --- hostile and malformed notifications: what each gets, and that it writes nothing and looks nothing up

    /*
     * Each sweep sends one kind of bad input to both doors and says, input by input, what the gateway answers: the
     * status, and the problem's type (every refusal is application/problem+json) or the 200's status member. Then it
     * holds that the journal is as it was, that neither simulator was asked about the objects the inputs name, and that
     * the gateway logged no warning, error or exception. These run after the ordered tests and before the burst, which
     * would answer their well-formed inputs 429.
     */

    private static final String YOOKASSA = "/notifications/yookassa";
    private static final String BITRIX24 = "/notifications/bitrix24";
    private static final String JSON = "application/json";
    private static final String FORM = "application/x-www-form-urlencoded";
    private static final String TOKEN = Simulators.BITRIX24_APPLICATION_TOKEN;
    /** Both targets' configured source; 127.0.0.2 is outside it. */
    private static final String HOME = "127.0.0.1";
    private static final String ELSEWHERE = "127.0.0.2";
    /** The door's limit on a body (NotificationDoor.MAX_BODY). */
    private static final int LIMIT = 64 * 1024;
    private static final String PROBLEMS = "https://toolgate.dev/problems/";

    @Test
    void aNotificationInAnotherMediaTypeThanItsTargetSendsIsRefusedWith415AndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        String notification = yooKassaBody("payment.succeeded", s.payment, null);
        String event = bitrix24Form("ONCRMDEALUPDATE", s.deal, TOKEN);
        s.expect("415 unsupported-media-type", "YooKassa: its JSON without a Content-Type", post(HOME, YOOKASSA, null, notification));
        s.expect("415 unsupported-media-type", "YooKassa: its JSON as text/plain", post(HOME, YOOKASSA, "text/plain", notification));
        s.expect("415 unsupported-media-type", "YooKassa: its JSON as application/json-patch+json",
                post(HOME, YOOKASSA, "application/json-patch+json", notification));
        s.expect("415 unsupported-media-type", "YooKassa: Bitrix24's form", post(HOME, YOOKASSA, FORM, event));
        s.expect("415 unsupported-media-type", "Bitrix24: its form without a Content-Type", post(HOME, BITRIX24, null, event));
        s.expect("415 unsupported-media-type", "Bitrix24: its fields as JSON", post(HOME, BITRIX24, JSON, "{\"event\":\"ONCRMDEALUPDATE\","
                + "\"data\":{\"FIELDS\":{\"ID\":\"" + s.deal + "\"}},\"auth\":{\"application_token\":\"" + TOKEN + "\"}}"));
        s.expect("415 unsupported-media-type", "Bitrix24: its fields as multipart/form-data", post(HOME, BITRIX24,
                "multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"event\"\r\n\r\nONCRMDEALUPDATE\r\n"
                        + "--b\r\nContent-Disposition: form-data; name=\"auth[application_token]\"\r\n\r\n" + TOKEN + "\r\n--b--\r\n"));
        s.expect("415 unsupported-media-type", "Bitrix24: its form as text/plain", post(HOME, BITRIX24, "text/plain", event));
        s.expect("415 unsupported-media-type", "Bitrix24: its form as application/x-www-form-urlencoded-x",
                post(HOME, BITRIX24, FORM + "-x", event));
        s.assertNothingWrittenOrLookedUp();
    }

    @Test
    void anEmptyBodyIsRefusedWith400AtYooKassaAndWith403AtBitrix24WhereItLacksTheTokenAndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        s.expect("400 invalid-request", "YooKassa: an empty JSON body", post(HOME, YOOKASSA, JSON, ""));
        s.expect("403 notification-source-refused", "Bitrix24: an empty form, so no application token", post(HOME, BITRIX24, FORM, ""));
        s.assertNothingWrittenOrLookedUp();
    }

    @Test
    void aBodyThatIsNotJsonOrNotAWellFormedFormIsRefusedWith400AndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        String notification = yooKassaBody("payment.succeeded", s.payment, null);
        String ids = "event=ONCRMDEALUPDATE&auth%5Bapplication_token%5D=" + TOKEN + "&data%5BFIELDS%5D%5BID%5D=";
        s.expect("400 invalid-request", "YooKassa: JSON cut short", post(HOME, YOOKASSA, JSON, notification.substring(0, 40)));
        s.expect("400 invalid-request", "YooKassa: not JSON at all", post(HOME, YOOKASSA, JSON, "type=notification&event=payment.succeeded"));
        s.expect("400 invalid-request", "YooKassa: a trailing comma", post(HOME, YOOKASSA, JSON, "{\"type\":\"notification\",}"));
        s.expect("400 invalid-request", "YooKassa: a notification with more JSON after it", post(HOME, YOOKASSA, JSON, notification + "{}"));
        int id = notification.indexOf(s.payment);
        ByteArrayOutputStream notUtf8 = new ByteArrayOutputStream();
        notUtf8.writeBytes(notification.substring(0, id).getBytes(StandardCharsets.UTF_8));
        notUtf8.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xFE, 'x'});
        notUtf8.writeBytes(notification.substring(id + s.payment.length()).getBytes(StandardCharsets.UTF_8));
        s.expect("400 invalid-request", "YooKassa: the object id in bytes that are not UTF-8", post(HOME, YOOKASSA, JSON, notUtf8.toByteArray()));
        s.expect("400 invalid-request", "YooKassa: metadata nested 5,000 deep", post(HOME, YOOKASSA, JSON,
                notification.replace("\"metadata\":{}", "\"metadata\":" + "[".repeat(5000) + "]".repeat(5000))));
        s.expect("400 invalid-request", "Bitrix24: a percent-escape that is none (%ZZ) for the deal id", post(HOME, BITRIX24, FORM, ids + "%ZZ"));
        s.expect("400 invalid-request", "Bitrix24: a lone % for the deal id", post(HOME, BITRIX24, FORM, ids + "%"));
        s.expect("400 invalid-request", "Bitrix24: the deal id in bytes that are not UTF-8 (%FF)", post(HOME, BITRIX24, FORM, ids + "9%FF"));
        s.expect("400 invalid-request", "Bitrix24: a field the door does not read in bytes that are not UTF-8 (%FF)",
                post(HOME, BITRIX24, FORM, bitrix24Form("ONCRMDEALUPDATE", s.deal, TOKEN) + "&auth%5Bdomain%5D=%FF"));
        ByteArrayOutputStream rawNotUtf8 = new ByteArrayOutputStream();
        rawNotUtf8.writeBytes(bitrix24Form("ONCRMDEALUPDATE", s.deal, TOKEN).getBytes(StandardCharsets.UTF_8));
        rawNotUtf8.writeBytes(new byte[] {'&', 'x', '=', (byte) 0xC3, '('});
        s.expect("400 invalid-request", "Bitrix24: bytes that are not UTF-8, unescaped", post(HOME, BITRIX24, FORM, rawNotUtf8.toByteArray()));
        s.expect("400 invalid-request", "Bitrix24: separators and no fields but the token",
                post(HOME, BITRIX24, FORM, "&&=&==&auth%5Bapplication_token%5D=" + TOKEN + "&&"));
        s.assertNothingWrittenOrLookedUp();
    }

    @Test
    void aJsonArrayOrScalarInsteadOfAnObjectIsRefusedWith400AndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        String notification = yooKassaBody("payment.succeeded", s.payment, null);
        s.expect("400 invalid-request", "YooKassa: an empty array", post(HOME, YOOKASSA, JSON, "[]"));
        s.expect("400 invalid-request", "YooKassa: the notification in an array", post(HOME, YOOKASSA, JSON, "[" + notification + "]"));
        s.expect("400 invalid-request", "YooKassa: a number", post(HOME, YOOKASSA, JSON, "42"));
        s.expect("400 invalid-request", "YooKassa: a string", post(HOME, YOOKASSA, JSON, "\"notification\""));
        s.expect("400 invalid-request", "YooKassa: null", post(HOME, YOOKASSA, JSON, "null"));
        s.expect("400 invalid-request", "YooKassa: true", post(HOME, YOOKASSA, JSON, "true"));
        s.expect("400 invalid-request", "YooKassa: object an array", post(HOME, YOOKASSA, JSON,
                "{\"type\":\"notification\",\"event\":\"payment.succeeded\",\"object\":[{\"id\":\"" + s.payment + "\"}]}"));
        s.expect("400 invalid-request", "YooKassa: object.id a number", post(HOME, YOOKASSA, JSON,
                "{\"type\":\"notification\",\"event\":\"payment.succeeded\",\"object\":{\"id\":42}}"));
        String fields = "event=ONCRMDEALUPDATE&auth%5Bapplication_token%5D=" + TOKEN;
        s.expect("400 invalid-request", "Bitrix24: the deal id as an array (data[FIELDS][ID][]=…)",
                post(HOME, BITRIX24, FORM, fields + "&data%5BFIELDS%5D%5BID%5D%5B%5D=" + s.deal));
        s.expect("400 invalid-request", "Bitrix24: the deal id as a JSON array", post(HOME, BITRIX24, FORM, fields + "&data%5BFIELDS%5D%5BID%5D=%5B"
                + s.deal + "%5D"));
        s.expect("403 notification-source-refused", "Bitrix24: a JSON array sent as a form (no token field)",
                post(HOME, BITRIX24, FORM, "[{\"event\":\"ONCRMDEALUPDATE\"}]"));
        s.assertNothingWrittenOrLookedUp();
    }

    /** The limit is 64 KiB for both: a body of exactly that is taken, one byte more is not, however it is sent. */
    @Test
    void aBodyOverTheDoorsLimitIsRefusedWith413AndWritesNothing() throws Exception {
        Map<String, Integer> before = notificationCounts();
        Sweep s = new Sweep();
        s.expect("200 accepted", "YooKassa: a notification of exactly 64 KiB", post(HOME, YOOKASSA, JSON, yooKassaOf(s.payment, LIMIT)));
        s.expect("413 payload-too-large", "YooKassa: one byte more", post(HOME, YOOKASSA, JSON, yooKassaOf(s.payment, LIMIT + 1)));
        s.expect("413 payload-too-large", "YooKassa: one byte more, chunked",
                postChunked(HOME, YOOKASSA, JSON, yooKassaOf(s.payment, LIMIT + 1).getBytes(StandardCharsets.UTF_8)));
        s.expect("413 payload-too-large", "YooKassa: 3 MB", post(HOME, YOOKASSA, JSON, yooKassaOf(s.payment, 3 << 20)));
        s.expect("200 accepted", "Bitrix24: an event of exactly 64 KiB", post(HOME, BITRIX24, FORM, bitrix24Of(s.deal, LIMIT)));
        s.expect("413 payload-too-large", "Bitrix24: one byte more", post(HOME, BITRIX24, FORM, bitrix24Of(s.deal, LIMIT + 1)));
        s.expect("413 payload-too-large", "Bitrix24: 3 MB", post(HOME, BITRIX24, FORM, bitrix24Of(s.deal, 3 << 20)));
        s.expect("413 payload-too-large", "Bitrix24: 3 MB, chunked",
                postChunked(HOME, BITRIX24, FORM, bitrix24Of(s.deal, 3 << 20).getBytes(StandardCharsets.UTF_8)));
        awaitCount(before, "yookassa not_found", 1);
        awaitCount(before, "bitrix24 not_found", 1);
        s.assertNothingWrittenOrLookedUp();
    }

    @Test
    void aBodyThatIsNotTheTargetsNotificationIsRefusedWith400AndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        s.expect("400 invalid-request", "YooKassa: type not notification", post(HOME, YOOKASSA, JSON,
                yooKassaBody("payment.succeeded", s.payment, null).replace("\"notification\"", "\"payment\"")));
        s.expect("400 invalid-request", "YooKassa: no event", post(HOME, YOOKASSA, JSON,
                "{\"type\":\"notification\",\"object\":{\"id\":\"" + s.payment + "\"}}"));
        s.expect("400 invalid-request", "YooKassa: an event that is no event name", post(HOME, YOOKASSA, JSON,
                yooKassaBody("<script>alert(1)</script>", s.payment, null)));
        s.expect("400 invalid-request", "YooKassa: no object", post(HOME, YOOKASSA, JSON,
                "{\"type\":\"notification\",\"event\":\"payment.succeeded\"}"));
        s.expect("400 invalid-request", "YooKassa: an object id that is a path", post(HOME, YOOKASSA, JSON,
                yooKassaBody("payment.succeeded", "../../v3/payments", null)));
        s.expect("400 invalid-request", "YooKassa: an object id of 65 characters", post(HOME, YOOKASSA, JSON,
                yooKassaBody("payment.succeeded", "p".repeat(65), null)));
        s.expect("400 invalid-request", "YooKassa: an object id that is a card number", post(HOME, YOOKASSA, JSON,
                yooKassaBody("payment.succeeded", "4111111111111111", null)));
        String token = "&auth%5Bapplication_token%5D=" + TOKEN;
        s.expect("400 invalid-request", "Bitrix24: no event", post(HOME, BITRIX24, FORM, "data%5BFIELDS%5D%5BID%5D=" + s.deal + token));
        s.expect("400 invalid-request", "Bitrix24: an event that is no event name",
                post(HOME, BITRIX24, FORM, bitrix24Form("%3Cscript%3E", s.deal, TOKEN)));
        s.expect("400 invalid-request", "Bitrix24: no deal id", post(HOME, BITRIX24, FORM, "event=ONCRMDEALUPDATE" + token));
        s.expect("400 invalid-request", "Bitrix24: deal id 0", post(HOME, BITRIX24, FORM, bitrix24Form("ONCRMDEALUPDATE", "0", TOKEN)));
        s.expect("400 invalid-request", "Bitrix24: deal id -1", post(HOME, BITRIX24, FORM, bitrix24Form("ONCRMDEALUPDATE", "-1", TOKEN)));
        s.expect("400 invalid-request", "Bitrix24: a deal id of 19 digits",
                post(HOME, BITRIX24, FORM, bitrix24Form("ONCRMDEALUPDATE", "1" + "0".repeat(18), TOKEN)));
        s.expect("400 invalid-request", "Bitrix24: the deal id twice",
                post(HOME, BITRIX24, FORM, bitrix24Form("ONCRMDEALUPDATE", s.deal, TOKEN) + "&data%5BFIELDS%5D%5BID%5D=1"));
        s.assertNothingWrittenOrLookedUp();
    }

    /** A form field the edge refuses is the edge's answer, before the door reads anything (docs/input.md). */
    @Test
    void aFormFieldNoDoorTakesIsRefusedByTheEdgeWith400Or422AndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        String event = bitrix24Form("ONCRMDEALUPDATE", s.deal, TOKEN);
        s.expect("400 invalid-request", "Bitrix24: a control character in a field", post(HOME, BITRIX24, FORM, event + "&ts=1%01"));
        s.expect("400 invalid-request", "Bitrix24: a field name of 65 characters", post(HOME, BITRIX24, FORM, event + "&" + "n".repeat(65) + "=1"));
        s.expect("422 card-number-rejected", "Bitrix24: a card number for the deal id",
                post(HOME, BITRIX24, FORM, bitrix24Form("ONCRMDEALUPDATE", "4111111111111111", TOKEN)));
        s.expect("422 card-number-rejected", "Bitrix24: a card number in a field the door does not read, with a wrong token",
                post(HOME, BITRIX24, FORM, bitrix24Form("ONCRMDEALUPDATE", s.deal, "wrong") + "&data%5BFIELDS%5D%5BCOMMENTS%5D=4111+1111+1111+1111"));
        s.assertNothingWrittenOrLookedUp();
    }

    @Test
    void anEventOurOperationsDoNotMakeIsAnswered200IgnoredAndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        s.expect("200 ignored", "YooKassa: payout.succeeded", post(HOME, YOOKASSA, JSON, yooKassaBody("payout.succeeded", s.payment, null)));
        s.expect("200 ignored", "YooKassa: deal.closed", post(HOME, YOOKASSA, JSON, yooKassaBody("deal.closed", s.payment, null)));
        s.expect("200 ignored", "Bitrix24: ONCRMCONTACTADD", post(HOME, BITRIX24, FORM, bitrix24Form("ONCRMCONTACTADD", s.deal, TOKEN)));
        s.expect("200 ignored", "Bitrix24: ONCRMDEALDELETE", post(HOME, BITRIX24, FORM, bitrix24Form("ONCRMDEALDELETE", s.deal, TOKEN)));
        s.assertNothingWrittenOrLookedUp();
    }

    /**
     * Taken (200 with a receipt) before anything is looked up; then nothing matches it, and with no operation outstanding
     * at the target, the target is not asked whose the object is (docs/notifications.md).
     */
    @Test
    void aWellFormedNotificationAboutAnObjectTheJournalDoesNotKnowIsAccepted200ThenLooksNothingUpAndWritesNothing() throws Exception {
        assertEquals("0", one("SELECT count(*) FROM agent_operation_log WHERE status IN ('unknown', 'started') AND operation_key <> ?", ""),
                "no operation is outstanding");
        Map<String, Integer> before = notificationCounts();
        Sweep s = new Sweep();
        s.expect("200 accepted", "YooKassa: payment.succeeded for a payment no operation made",
                post(HOME, YOOKASSA, JSON, yooKassaBody("payment.succeeded", s.payment, null)));
        s.expect("200 accepted", "YooKassa: the same, its metadata naming a key no operation has",
                post(HOME, YOOKASSA, JSON, yooKassaBody("payment.succeeded", s.payment, "acme/test:notify:nobody:v1")));
        s.expect("200 accepted", "YooKassa: the same, on the path of a tenant there is not",
                post(HOME, YOOKASSA + "/no-such-tenant", JSON, yooKassaBody("payment.succeeded", s.payment, null)));
        s.expect("200 accepted", "Bitrix24: ONCRMDEALUPDATE for a deal no operation made",
                post(HOME, BITRIX24, FORM, bitrix24Form("ONCRMDEALUPDATE", s.deal, TOKEN)));
        awaitCount(before, "yookassa not_found", 3);
        awaitCount(before, "bitrix24 not_found", 1);
        s.assertNothingWrittenOrLookedUp();
    }

    @Test
    void aBitrix24EventWithAWrongOrMissingApplicationTokenIsRefusedWith403AndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        String fields = "event=ONCRMDEALUPDATE&data%5BFIELDS%5D%5BID%5D=" + s.deal;
        String token = "&auth%5Bapplication_token%5D=";
        s.expect("403 notification-source-refused", "a wrong token", post(HOME, BITRIX24, FORM, fields + token + "not-the-token"));
        s.expect("403 notification-source-refused", "no token", post(HOME, BITRIX24, FORM, fields));
        s.expect("403 notification-source-refused", "an empty token", post(HOME, BITRIX24, FORM, fields + token));
        s.expect("403 notification-source-refused", "the token in upper case", post(HOME, BITRIX24, FORM, fields + token + TOKEN.toUpperCase(Locale.ROOT)));
        s.expect("403 notification-source-refused", "the token less its last character",
                post(HOME, BITRIX24, FORM, fields + token + TOKEN.substring(0, TOKEN.length() - 1)));
        s.expect("403 notification-source-refused", "the token and one character more", post(HOME, BITRIX24, FORM, fields + token + TOKEN + "0"));
        s.expect("403 notification-source-refused", "the token twice", post(HOME, BITRIX24, FORM, fields + token + TOKEN + token + TOKEN));
        s.expect("403 notification-source-refused", "the token and a wrong one", post(HOME, BITRIX24, FORM, fields + token + TOKEN + token + "x"));
        s.expect("403 notification-source-refused", "the token under another name (auth[APPLICATION_TOKEN])",
                post(HOME, BITRIX24, FORM, fields + "&auth%5BAPPLICATION_TOKEN%5D=" + TOKEN));
        s.expect("403 notification-source-refused", "a wrong token and a body that is no event (the token is checked first)",
                post(HOME, BITRIX24, FORM, "event=%3F" + token + "x"));
        s.expect("403 notification-source-refused", "the token in the query, not in the form",
                post(HOME, BITRIX24 + "?auth%5Bapplication_token%5D=" + TOKEN, FORM, fields));
        s.assertNothingWrittenOrLookedUp();
    }

    /** The test binds its socket to 127.0.0.2: a source outside both targets' configured 127.0.0.1/32. */
    @Test
    void aNotificationFromAnAddressOutsideTheConfiguredSourcesIsRefusedWith403AndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        String notification = yooKassaBody("payment.succeeded", s.payment, null);
        s.expect("403 notification-source-refused", "YooKassa: a well-formed notification", post(ELSEWHERE, YOOKASSA, JSON, notification));
        s.expect("403 notification-source-refused", "YooKassa: text/plain (the source is checked before anything else)",
                post(ELSEWHERE, YOOKASSA, "text/plain", notification));
        s.expect("403 notification-source-refused", "YooKassa: not JSON", post(ELSEWHERE, YOOKASSA, JSON, "{"));
        s.expect("403 notification-source-refused", "YooKassa: over the limit", post(ELSEWHERE, YOOKASSA, JSON, yooKassaOf(s.payment, LIMIT + 1)));
        s.expect("403 notification-source-refused", "Bitrix24: a well-formed event with the right token",
                post(ELSEWHERE, BITRIX24, FORM, bitrix24Form("ONCRMDEALUPDATE", s.deal, TOKEN)));
        s.expect("403 notification-source-refused", "Bitrix24: a wrong token", post(ELSEWHERE, BITRIX24, FORM, bitrix24Form("ONCRMDEALUPDATE", s.deal, "x")));
        s.assertNothingWrittenOrLookedUp();
    }

    @Test
    void aMethodOtherThanPostIsRefusedWith405NamingTheAllowedOnesAndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        for (String path : List.of(YOOKASSA, BITRIX24)) {
            for (String method : List.of("GET", "PUT", "DELETE", "PATCH", "PROPFIND")) {
                s.expect("405 method-not-allowed; Allow: POST, OPTIONS", method + " " + path, request(method, path));
            }
            s.expect("405 (no body); Allow: POST, OPTIONS", "HEAD " + path, request("HEAD", path));
            s.expect("405 (no body); Allow: POST, OPTIONS", "TRACE " + path, request("TRACE", path));
            s.expect("200 (no body); Allow: POST, OPTIONS", "OPTIONS " + path, request("OPTIONS", path));
        }
        s.assertNothingWrittenOrLookedUp();
    }

    @Test
    void aPathThatNamesNoTargetTakingNotificationsIsRefusedWith404AndWritesNothing() throws Exception {
        Sweep s = new Sweep();
        String notification = yooKassaBody("payment.succeeded", s.payment, null);
        s.expect("404 notifications-not-taken", "/notifications/nope", post(HOME, "/notifications/nope", JSON, notification));
        s.expect("404 notifications-not-taken", "/notifications/nope, a form",
                post(HOME, "/notifications/nope", FORM, bitrix24Form("ONCRMDEALUPDATE", s.deal, TOKEN)));
        s.expect("404 notifications-not-taken", "/notifications/1c", post(HOME, "/notifications/1c", JSON, notification));
        s.expect("404 not-found", "/notifications", post(HOME, "/notifications", JSON, notification));
        s.expect("404 not-found", "/notifications/", post(HOME, "/notifications/", JSON, notification));
        s.expect("404 not-found", "/notifications/YooKassa", post(HOME, "/notifications/YooKassa", JSON, notification));
        s.expect("404 not-found", "/notifications/yookassa.json", post(HOME, "/notifications/yookassa.json", JSON, notification));
        s.expect("404 not-found", "/notifications/yookassa/ (an empty tenant)", post(HOME, YOOKASSA + "/", JSON, notification));
        s.expect("404 not-found", "/notifications/yookassa/acme/more", post(HOME, YOOKASSA + "/acme/more", JSON, notification));
        s.assertNothingWrittenOrLookedUp();
    }

    /**
     * One sweep: what each input got against what it must get, and — once all are answered — that nothing was written,
     * looked up or logged as a failure. Its objects, a payment and a deal no operation made, are watched at their
     * simulators by a harmless fault (a delay of 0 ms) that only a request naming them would take.
     */
    private final class Sweep {
        final String payment = UUID.randomUUID().toString();
        /** Twelve digits: 13 to 19 that pass Luhn would be refused as a card number (422) wherever they stand. */
        final String deal = Long.toString(ThreadLocalRandom.current().nextLong(900_000_000_000L, 1_000_000_000_000L));
        private final String journal = journalState();
        private final long logAt = logSize();
        private final List<Executable> checks = new ArrayList<>();

        Sweep() {
            targets.arm("yookassa", payment, "delay", 1);
            targets.arm("bitrix24", deal, "delay", 1);
        }

        /** {@code answer}: the status and the problem's type, or the 200's status member, that {@code input} must get. */
        void expect(String answer, String input, Sent got) {
            String said = answered(got);
            checks.add(() -> assertEquals(answer, said, input + ": " + got));
        }

        void assertNothingWrittenOrLookedUp() {
            checks.add(() -> assertEquals(journal, journalState(), "the journal is as it was: no operation_event row, no operation changed"));
            checks.add(() -> assertTrue(watched("yookassa", payment), "YooKassa was not asked about payment " + payment));
            checks.add(() -> assertTrue(watched("bitrix24", deal), "Bitrix24 was not asked about deal " + deal));
            checks.add(() -> {
                // a container's warning per request (a form it decoded twice, a body too large for it) fills the log in a flood
                String logged = logSince(logAt);
                assertFalse(logged.contains("WARNING") || logged.contains("SEVERE") || logged.contains("Exception"),
                        "the gateway logged a warning, an error or an exception:\n" + logged);
            });
            assertAll(checks);
        }

        private boolean watched(String system, String object) {
            return targets.stillArmed(system).stream().anyMatch(f -> f.match().equals(object));
        }
    }

    /**
     * An answer in one line: its status and the problem's type (a problem+json whose own status agrees), or the status
     * member of a JSON 200 (with a receipt if accepted); anything else as it came. {@code Allow} when there is one.
     */
    private static String answered(Sent answer) {
        String type = answer.header("Content-Type");
        String said = null;
        try {
            if ("application/problem+json".equals(type)) {
                JsonObject problem = Json.createReader(new StringReader(answer.body())).readObject();
                said = problem.getString("type").replace(PROBLEMS, "")
                        + (problem.getInt("status") == answer.status() ? "" : " (its body says " + problem.getInt("status") + ")");
            } else if (JSON.equals(type)) {
                JsonObject json = Json.createReader(new StringReader(answer.body())).readObject();
                said = json.getString("status") + ("accepted".equals(json.getString("status")) == json.containsKey("receipt") ? "" : " (receipt?)");
            }
        } catch (RuntimeException notWhatItSays) {
            said = null;
        }
        if (said == null) {
            said = answer.body().isEmpty() ? "(no body)" : type + ": " + answer.body().substring(0, Math.min(200, answer.body().length()));
        }
        return answer.status() + " " + said + (answer.header("Allow") == null ? "" : "; Allow: " + answer.header("Allow"));
    }

    /** A YooKassa notification about {@code payment} of exactly {@code bytes} bytes, padded in a member the door does not read. */
    private static String yooKassaOf(String payment, int bytes) {
        String notification = yooKassaBody("payment.succeeded", payment, null);
        String padded = notification.replace("\"metadata\":{}", "\"metadata\":{},\"description\":\"\"");
        return padded.replace("\"description\":\"\"", "\"description\":\"" + "x".repeat(bytes - padded.length()) + "\"");
    }

    /**
     * A Bitrix24 event about {@code deal} of exactly {@code bytes} bytes, padded in fields the door does not read, of at most
     * 4,000 characters each (the edge's limit on one value is 4,096).
     */
    private static String bitrix24Of(String deal, int bytes) {
        StringBuilder form = new StringBuilder(bitrix24Form("ONCRMDEALUPDATE", deal, TOKEN));
        for (int i = 0; form.length() < bytes; i++) {
            String field = "&pad" + i + "=";
            int left = bytes - form.length() - field.length();
            // never leave less than the next field's own name and '='
            form.append(field).append("x".repeat(left > 4_000 && left < 4_016 ? 3_984 : Math.min(4_000, left)));
        }
        return form.toString();
    }

    /** Until the count of {@code outcome} ("target outcome") is {@code more} above {@code before}'s: the look-ups queued are done. */
    private void awaitCount(Map<String, Integer> before, String outcome, int more) throws Exception {
        Instant deadline = Instant.now().plusSeconds(20);
        Map<String, Integer> now = notificationCounts();
        while (now.getOrDefault(outcome, 0) < before.getOrDefault(outcome, 0) + more) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(outcome + " not counted " + more + " more times: " + before + " -> " + now);
            }
            sleep(50);
            now = notificationCounts();
        }
    }

    /** Every event (count and last id) and a digest of every operation row: a write anywhere in the journal changes it. */
    private static String journalState() {
        return one("SELECT (SELECT count(*) || ' events, the last ' || coalesce(max(id), 0) FROM operation_event)"
                + " || '; operations ' || (SELECT md5(coalesce(string_agg(o::text, '|' ORDER BY o.operation_key), ''))"
                + " FROM agent_operation_log o WHERE o.operation_key <> ?)", "");
    }

    private static final Path GATEWAY_LOG = Path.of("target", "notifications-gateway.log");

    private static long logSize() {
        try {
            return Files.size(GATEWAY_LOG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the gateway logged since {@code offset}, once its log has been still for a moment. */
    private static String logSince(long offset) {
        sleep(200);
        try (InputStream log = Files.newInputStream(GATEWAY_LOG)) {
            log.skipNBytes(offset);
            return new String(log.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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

    /** An answer as it came off the wire: status, headers (by lower-case name, the first of each), body (de-chunked). */
    private record Sent(int status, Map<String, String> headers, String body) {

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private Sent forgedYooKassa(String from, String event, String objectId, String keyHint) throws IOException {
        return post(from, YOOKASSA, JSON, yooKassaBody(event, objectId, keyHint));
    }

    private Sent forgedBitrix24(String from, String token, String dealId) throws IOException {
        return post(from, BITRIX24, FORM, bitrix24Form("ONCRMDEALADD", dealId, token));
    }

    /** A YooKassa notification as its simulator sends one; {@code keyHint} null: metadata without our key. */
    private static String yooKassaBody(String event, String objectId, String keyHint) {
        String metadata = keyHint == null ? "{}" : "{\"gw_key\":\"" + keyHint + "\"}";
        return "{\"type\":\"notification\",\"event\":\"" + event + "\",\"object\":{\"id\":\"" + objectId
                + "\",\"status\":\"succeeded\",\"metadata\":" + metadata + "}}";
    }

    /** A Bitrix24 outbound event, form-encoded as Bitrix24 sends it; {@code token} null: none. */
    private static String bitrix24Form(String event, String dealId, String token) {
        return "event=" + event + "&data%5BFIELDS%5D%5BID%5D=" + dealId + "&ts=1764936000&auth%5Bdomain%5D=portal.bitrix24.ru"
                + (token == null ? "" : "&auth%5Bapplication_token%5D=" + token);
    }

    private Sent post(String from, String path, String type, String body) throws IOException {
        return post(from, path, type, body.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code type} null: no Content-Type at all. */
    private Sent post(String from, String path, String type, byte[] body) throws IOException {
        return send(from, "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (type == null ? "" : "Content-Type: " + type + "\r\n")
                + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n", body);
    }

    /** The same without Content-Length: chunked, 8 KiB a chunk, as a client that streams its body sends it. */
    private Sent postChunked(String from, String path, String type, byte[] body) throws IOException {
        ByteArrayOutputStream chunked = new ByteArrayOutputStream();
        for (int at = 0; at < body.length; at += 8192) {
            int n = Math.min(8192, body.length - at);
            chunked.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            chunked.write(body, at, n);
            chunked.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        chunked.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return send(from, "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + type
                + "\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n", chunked.toByteArray());
    }

    /** {@code method} on {@code path}, with no body, from the targets' configured source. */
    private Sent request(String method, String path) throws IOException {
        return send(HOME, method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", new byte[0]);
    }

    private Sent send(String from, String request) throws IOException {
        return send(from, request, new byte[0]);
    }

    /**
     * One HTTP/1.1 exchange over a socket bound to {@code from}: 127.0.0.2 is another source on the same machine. The
     * request is written on a thread of its own: a server may answer before it has read a large body, and close.
     */
    private Sent send(String from, String head, byte[] body) throws IOException {
        URI gatewayUri = URI.create(gateway.baseUrl());
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
            socket.connect(new InetSocketAddress(gatewayUri.getHost(), gatewayUri.getPort()), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            Thread writer = new Thread(() -> {
                try {
                    out.write(head.getBytes(StandardCharsets.UTF_8));
                    out.write(body);
                    out.flush();
                } catch (IOException answeredEarly) {
                    // the server answered and closed before it took the whole body: its answer is there to read
                }
            }, "notification-sender");
            writer.start();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    received.write(buffer, 0, n);
                }
            } catch (SocketException reset) { // a close with the body unread resets the connection after the answer
                if (received.size() == 0) {
                    throw reset;
                }
            }
        }
        return parse(received.toByteArray());
    }

    private static Sent parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        String[] head = (end < 0 ? text : text.substring(0, end)).split("\r\n");
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < head.length; i++) {
            int colon = head[i].indexOf(':');
            if (colon > 0) {
                headers.putIfAbsent(head[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), head[i].substring(colon + 1).strip());
            }
        }
        byte[] body = end < 0 ? new byte[0] : Arrays.copyOfRange(raw, end + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream whole = new ByteArrayOutputStream();
            int at = end + 4;
            for (int line = text.indexOf("\r\n", at); line > 0; line = text.indexOf("\r\n", at)) {
                int size = Integer.parseInt(text.substring(at, line).split(";")[0].strip(), 16);
                if (size == 0) {
                    break;
                }
                whole.write(raw, line + 2, size);
                at = line + 2 + size + 2;
            }
            body = whole.toByteArray();
        }
        return new Sent(Integer.parseInt(head[0].substring(9, 12)), headers, new String(body, StandardCharsets.UTF_8));
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
