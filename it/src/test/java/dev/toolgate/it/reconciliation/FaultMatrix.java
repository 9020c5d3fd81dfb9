package dev.toolgate.it.reconciliation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.checker.Verdict;
import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.RunHistory;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.it.support.YooKassaDirect;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The fault matrix: {@code -Dtoolgate.matrix} operations (default 1,000) across 1C, Bitrix24
 * and YooKassa, 8 agents at once, each operation with a fault drawn from a seeded random (or none):
 * drop after commit, reset before commit, 429, 500, 502/503, a delay beyond the read timeout, pending
 * then succeeded. Agents retry what they are told to retry; the reconcile job runs every second. When
 * all is quiet the run is judged by the {@link dev.toolgate.checker.Checker} from every answer the agents got, the
 * journal read directly and what the simulators received and fired: no 5xx, every acknowledged operation made
 * exactly once, every other one settled and made at most once, no create sent twice with one key, no escalation
 * (none of these faults outlasts the reconcile budget), every armed fault fired. Prints one line.
 *
 * <p>With the targets' notifications on ({@link #announced}), the simulators also announce every payment, refund and
 * deal to the gateway, some of them lost, duplicated, delayed, reordered, sent early or from a foreign source: a third
 * settler racing the agents and the job, judged by the same checker (docs/notifications.md).
 */
abstract class FaultMatrix {

    private static final int OPERATIONS = Integer.getInteger("toolgate.matrix", 1_000);
    private static final long SEED = Long.getLong("toolgate.matrix.seed", 20261130L);
    private static final List<String> FAULTS = List.of("none", "drop_response_after_commit", "reset_before_commit", "status:429",
            "status:500", "status:502", "status:503", "delay", "pending_then_succeeded");

    /** Notification faults armed on each target's announcements when they are on, and how many of each. */
    private static final Map<String, List<String>> NOTIFICATION_FAULTS = Map.of(
            "yookassa", List.of("lose", "duplicate", "delay", "reorder", "foreign_source", "early"),
            "bitrix24", List.of("lose", "duplicate", "delay", "reorder", "foreign_source"));
    private static final int NOTIFICATION_FAULT_TIMES = 8;

    private final SimulatorClient targets = TestStack.targets();

    /** The settings that turn the targets' notifications on, for the lane's simulators on this machine. */
    static Map<String, String> notificationSettings() {
        return Map.of("toolgate.target.yookassa.notifications.sources", "127.0.0.1/32",
                "toolgate.target.bitrix24.notifications.application-token", dev.toolgate.simulator.Simulators.BITRIX24_APPLICATION_TOKEN,
                "toolgate.target.bitrix24.notifications.sources", "127.0.0.1/32",
                "toolgate.notifications.per-second", "500", "toolgate.notifications.burst", "500");
    }

    /** Subscribes the lane's simulators to {@code gateway}'s notification doors; what {@link #withdraw} takes back. */
    static List<String> subscribe(GatewayProcess gateway) {
        SimulatorClient simulators = TestStack.targets();
        List<String> subscriptions = new ArrayList<>();
        for (String event : List.of("payment.succeeded", "payment.waiting_for_capture", "payment.canceled", "refund.succeeded")) {
            subscriptions.add(simulators.subscribeYooKassa(event, gateway.baseUrl() + "/notifications/yookassa"));
        }
        for (String event : List.of("ONCRMDEALADD", "ONCRMDEALUPDATE")) {
            simulators.bindBitrix24(event, gateway.baseUrl() + "/notifications/bitrix24");
        }
        return subscriptions;
    }

    /** Ends the subscriptions, so the lane's next suites are announced nothing to a gateway that is gone. */
    static void withdraw(GatewayProcess gateway, List<String> subscriptions) {
        SimulatorClient simulators = TestStack.targets();
        subscriptions.forEach(simulators::unsubscribeYooKassa);
        for (String event : List.of("ONCRMDEALADD", "ONCRMDEALUPDATE")) {
            simulators.unbindBitrix24(event, gateway.baseUrl() + "/notifications/bitrix24");
        }
    }

    /** Whether this matrix's gateway takes the targets' notifications ({@link #subscribe}d by the suite). */
    protected boolean announced() {
        return false;
    }

    /** A gateway on the journal {@code jdbcUrl} names, set for the matrix: faults only, a fast reconcile. */
    static GatewayProcess matrixGateway(String jdbcUrl, String log) throws Exception {
        return matrixGateway(jdbcUrl, log, Map.of());
    }

    /** The same with {@code settings} on top (a pooler's, say). */
    static GatewayProcess matrixGateway(String jdbcUrl, String log, Map<String, String> settings) throws Exception {
        Map<String, String> config = TestStack.configFor(jdbcUrl);
        config.putAll(settings);
        config.put("toolgate.approval.required-for", "none"); // approvals have their own tests; here: faults only
        TestStack.fastReconcile(config);
        config.put("toolgate.reconcile.max-attempts", "6");
        return TestStack.readyGateway(TestStack.underLoad(config, 1_000), log);
    }

    /** The gateway the agents call; each suite starts and stops its own (no lifecycle here: a subclass's would not replace it). */
    protected abstract GatewayProcess gateway();

    /** The database the matrix's journal is in, read directly to judge the outcome. */
    protected abstract String database();

    @Test
    void everyOperationEndsSettledWithAtMostOneObjectPerKey() throws Exception {
        Random random = new Random(SEED);
        String batch = UUID.randomUUID().toString().substring(0, 8);
        List<String> payments = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            payments.add(shopPayment());
        }
        RunHistory run = new RunHistory(targets);
        List<Op> ops = new ArrayList<>();
        Map<String, Integer> faults = new TreeMap<>();
        for (int i = 0; i < OPERATIONS; i++) {
            String system = List.of("1c", "bitrix24", "yookassa").get(i % 3);
            String fault = FAULTS.get(random.nextInt(FAULTS.size()));
            if (fault.equals("pending_then_succeeded") && !system.equals("yookassa")) {
                fault = "none"; // only payment providers have a pending state
            }
            Op op = op(system, batch, i, random, payments);
            run.plan(op.key, op.system, false);
            arm(run, op, fault);
            faults.merge(fault, 1, Integer::sum);
            ops.add(op);
        }

        if (announced()) {
            NOTIFICATION_FAULTS.forEach((system, kinds) -> kinds.forEach(kind -> targets.armNotification(system,
                    system.equals("yookassa") ? "succeeded" : "ONCRMDEALADD", kind, NOTIFICATION_FAULT_TIMES, 300)));
        }
        Instant started = Instant.now();
        ExecutorService agents = Executors.newFixedThreadPool(8);
        List<Future<?>> calls = new ArrayList<>();
        for (Op op : ops) {
            calls.add(agents.submit(() -> run.call(op.key, () -> agent().submit(op.key, op.body))));
        }
        for (Future<?> call : calls) {
            call.get();
        }
        // agents retry what is not settled, as told; the reconcile job works through the unknowns meanwhile
        Map<String, Row> rows = rows(batch);
        for (int round = 0; round < 60 && !quiet(rows.values()); round++) {
            Thread.sleep(1_000);
            List<Future<?>> retries = new ArrayList<>();
            for (Op op : ops) {
                Row row = rows.get(op.key);
                if (row == null || !row.settled()) {
                    retries.add(agents.submit(() -> run.call(op.key, () -> agent().submit(op.key, op.body))));
                }
            }
            for (Future<?> retry : retries) {
                retry.get();
            }
            rows = rows(batch);
        }
        agents.shutdown();
        Duration took = Duration.between(started, Instant.now());

        Map<String, Integer> statuses = new TreeMap<>();
        rows.values().forEach(row -> statuses.merge(row.escalated ? "escalated" : row.status, 1, Integer::sum));
        Verdict verdict = run.judge(() -> TestStack.connect(database()));
        System.out.printf("fault matrix: %d operations (seed %d) in %.1f s; faults %s; outcomes %s; %s%n", OPERATIONS, SEED,
                took.toMillis() / 1000.0, faults, statuses, verdict.report());
        assertTrue(verdict.clean(), verdict.report());
        assertEquals(OPERATIONS, verdict.operations());
        if (announced()) {
            announcements();
        }
        assertTrue(verdict.answers() >= OPERATIONS, "every operation was called at least once: " + verdict.answers());
    }

    /** Every notification fault armed met a notification, and what the simulators' announcements came to; printed. */
    private void announcements() throws Exception {
        Map<String, Integer> counts = new TreeMap<>();
        NOTIFICATION_FAULTS.forEach((system, kinds) -> {
            List<SimulatorClient.SentNotification> sent = targets.settledNotifications(system, Duration.ofSeconds(30));
            sent.forEach(n -> counts.merge(system + " " + n.fault() + " " + n.state(), 1, Integer::sum));
            for (String kind : kinds) {
                assertTrue(sent.stream().anyMatch(n -> n.fault().equals(kind)), system + ": no notification met " + kind + ": " + counts);
            }
            sent.stream().filter(n -> n.fault().equals("foreign_source")).forEach(n ->
                    assertEquals(403, n.deliveredStatus(), "a foreign source is refused: " + n));
        });
        try (Connection c = TestStack.connect(database()); ResultSet r = c.createStatement().executeQuery("SELECT"
                + " count(*) FILTER (WHERE kind = 'notified'), count(*) FILTER (WHERE kind = 'reconciled' AND actor = 'notification'"
                + " AND detail LIKE 'found%') FROM operation_event")) {
            r.next();
            System.out.println("fault matrix announcements: " + counts + "; the gateway looked up " + r.getInt(1)
                    + " operations on a notification, " + r.getInt(2) + " of them settled by it");
            assertTrue(r.getInt(2) > 0, "notifications settled some of the matrix's operations");
        }
    }

    private static boolean quiet(Iterable<Row> rows) {
        for (Row row : rows) {
            if (!row.settled()) {
                return false;
            }
        }
        return true;
    }

    private static Op op(String system, String batch, int i, Random random, List<String> payments) {
        long amount = 1_000 + random.nextInt(9_000);
        String key = "test:matrix:" + batch + "-" + i + ":v1";
        String body = switch (system) {
            case "1c" -> Agent.invoice("order-matrix-" + i, amount);
            case "bitrix24" -> "{\"operation\":\"crm.deal.create\",\"target\":\"bitrix24\",\"payload\":{\"title\":\"Сделка " + i
                    + "\",\"amount_minor\":" + amount + ",\"currency\":\"RUB\"}}";
            default -> i % 2 == 0
                    ? "{\"operation\":\"payment.create\",\"target\":\"yookassa\",\"payload\":{\"order_id\":\"order-matrix-" + i
                    + "\",\"amount_minor\":" + amount + ",\"currency\":\"RUB\",\"description\":\"Заказ " + i + "\"}}"
                    : "{\"operation\":\"payment.refund\",\"target\":\"yookassa\",\"payload\":{\"payment_id\":\""
                    + payments.get(random.nextInt(payments.size())) + "\",\"amount_minor\":" + amount / 100
                    + ",\"currency\":\"RUB\",\"reason\":\"Возврат " + i + "\"}}";
        };
        return new Op(system, key, body);
    }

    private void arm(RunHistory run, Op op, String fault) {
        if (fault.equals("none")) {
            return;
        }
        if (fault.startsWith("status:")) {
            run.arm(op.key, "status", 1, match -> targets.armStatus(op.system, match, Integer.parseInt(fault.substring(7)), 1));
        } else if (fault.equals("delay")) {
            // beyond the 1 s read timeout: sent, then given up on
            run.arm(op.key, fault, 1, match -> targets.armDelay(op.system, match, 1_500));
        } else if (fault.equals("pending_then_succeeded")) {
            run.arm(op.key, fault, 1, match -> targets.armPending(op.system, match, 1_500));
        } else {
            run.arm(op.key, fault, 1, match -> targets.arm(op.system, match, fault, 1));
        }
    }

    /** A large captured payment made by the shop itself, for refunds to draw on. */
    private static String shopPayment() {
        return YooKassaDirect.create("payments",
                "{\"amount\":{\"value\":\"1000000.00\",\"currency\":\"RUB\"},\"capture\":true,\"description\":\"matrix\"}").getString("id");
    }

    private Map<String, Row> rows(String batch) throws Exception {
        Map<String, Row> rows = new HashMap<>();
        try (Connection c = TestStack.connect(database()); PreparedStatement q = c.prepareStatement(
                "SELECT operation_key, status, target_object_id, escalated_at IS NOT NULL FROM agent_operation_log WHERE operation_key LIKE ?")) {
            q.setString(1, "test:matrix:" + batch + "-%");
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    rows.put(r.getString(1), new Row(r.getString(2), r.getString(3), r.getBoolean(4)));
                }
            }
        }
        return rows;
    }

    private Agent agent() {
        return new Agent(gateway().baseUrl(), "agent-a");
    }

    private record Op(String system, String key, String body) {
    }

    private record Row(String status, String objectId, boolean escalated) {
        boolean settled() {
            return status.equals("succeeded") || status.equals("failed_final") || (status.equals("unknown") && escalated);
        }
    }
}
