package dev.toolgate.it.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.checker.History;
import dev.toolgate.checker.Verdict;
import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.RunHistory;
import dev.toolgate.it.support.TcpProxy;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.it.support.YooKassaDirect;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
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
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One seeded, reproducible run against everything at once: {@code -Dtoolgate.adversarial} operations
 * (default 240) across 1C, Bitrix24 and YooKassa, sent by 8 agents through two gateway instances (each
 * call to either, at random) while both instances' reconcile jobs run; targets slower than the 3 s lease;
 * seeded faults; payments and refunds approved, some revoked before dispatch and some while their
 * outcome is unknown; the journal's PostgreSQL restarted mid-run, and instance A's connections to it
 * (through a {@link TcpProxy}) cut and then black-holed. The oracle checks each key at its target.
 * Prints one line of figures.
 */
@Lane(2)
class AdversarialRunIT {

    private static final int OPERATIONS = Integer.getInteger("toolgate.adversarial", 240);
    private static final long SEED = Long.getLong("toolgate.adversarial.seed", 20261201L);
    private static final String DATABASE = "adversarial";
    private static final List<String> FAULTS = List.of("none", "none", "drop_response_after_commit", "reset_before_commit",
            "status:429", "status:500", "status:502", "status:503", "slow", "timeout", "pending_then_succeeded");
    /** 503 journal-unavailable is the outage's answer; it may trail an outage by the time a broken connection takes to fail. */
    private static final Duration OUTAGE_TAIL = Duration.ofSeconds(10);

    private static Path dataDirectory;
    private static int postgresPort;
    private static EmbeddedPostgres postgres;
    private static TcpProxy proxy;
    private static GatewayProcess gatewayA;
    private static GatewayProcess gatewayB;
    private final SimulatorClient targets = TestStack.targets();
    private final List<Window> outages = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Integer> answers = new ConcurrentHashMap<>();
    private final Map<String, Instant> revokedAt = new ConcurrentHashMap<>();
    private final List<String> outsideOutages = Collections.synchronizedList(new ArrayList<>());
    private final RunHistory run = new RunHistory(targets);

    @BeforeAll
    static void start() throws Exception {
        dataDirectory = Files.createTempDirectory("toolgate-adversarial-pg").resolve("data");
        postgresPort = LocalStack.freePort();
        postgres = LocalStack.postgres(dataDirectory, postgresPort);
        String direct = LocalStack.database(postgres, DATABASE);
        proxy = TcpProxy.to("127.0.0.1", postgresPort);
        // one after the other: two Payara Micros booting at once on two loaded cores starved one of them past the
        // journal's 2 s login at deployment ("JNDI lookup failed for java:app/jdbc/toolgate", the run of 2026-12-04)
        gatewayA = TestStack.readyGateway(settings(direct.replace(":" + postgresPort + "/", ":" + proxy.port() + "/")), "adversarial-a");
        gatewayB = TestStack.readyGateway(settings(direct), "adversarial-b");
    }

    private static Map<String, String> settings(String jdbcUrl) {
        Map<String, String> config = TestStack.configFor(jdbcUrl);
        config.put("toolgate.lease-seconds", "3");
        config.put("toolgate.reconcile.settle-seconds", "2");
        config.put("toolgate.reconcile.interval-seconds", "1");
        config.put("toolgate.reconcile.max-attempts", "8");
        config.put("toolgate.reconcile.max-backoff-seconds", "2");
        return TestStack.underLoad(config, 5_000); // targets given up on later than the lease ends
    }

    @AfterAll
    static void stop() throws Exception {
        for (GatewayProcess gateway : new GatewayProcess[] {gatewayA, gatewayB}) {
            TestStack.discard(gateway);
        }
        if (proxy != null) {
            proxy.close();
        }
        if (postgres != null) {
            postgres.close();
        }
        LocalStack.deleteRecursively(dataDirectory.getParent());
    }

    @Test
    void oneEffectPerKeyNothingLostNothingAfterARevokeThroughOutagesAndFaults() throws Exception {
        Random random = new Random(SEED);
        String batch = UUID.randomUUID().toString().substring(0, 8);
        List<String> payments = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            payments.add(YooKassaDirect.create("payments",
                    "{\"amount\":{\"value\":\"1000000.00\",\"currency\":\"RUB\"},\"capture\":true,\"description\":\"adversarial\"}")
                    .getString("id"));
        }
        Map<String, Integer> faults = new TreeMap<>();
        Map<String, Integer> revokes = new TreeMap<>();
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < OPERATIONS; i++) {
            Op op = op(batch, i, random, payments);
            String fault = FAULTS.get(random.nextInt(FAULTS.size()));
            if (fault.equals("pending_then_succeeded") && !op.system.equals("yookassa")) {
                fault = "none"; // only payment providers have a pending state
            }
            if (op.approval() && random.nextInt(4) == 0) { // a quarter of the payments and refunds are revoked
                op = op.revoked(random.nextBoolean() ? Revoke.BEFORE_DISPATCH : Revoke.WHILE_UNKNOWN);
                fault = op.revoke == Revoke.WHILE_UNKNOWN ? "reset_before_commit" : "none";
                revokes.merge(op.revoke.name().toLowerCase(), 1, Integer::sum);
            }
            run.plan(op.key, op.system, false);
            arm(op, fault);
            faults.merge(fault, 1, Integer::sum);
            ops.add(op.withFault(fault));
        }

        Instant started = Instant.now();
        ExecutorService agents = Executors.newFixedThreadPool(8);
        List<Future<?>> work = new ArrayList<>();
        for (Op op : ops) {
            long seed = random.nextLong();
            work.add(agents.submit(() -> untilFinal(op, new Random(seed))));
        }
        Map<String, Integer> outageCounts = breakTheJournal();
        for (Future<?> agent : work) {
            agent.get(5, TimeUnit.MINUTES);
        }
        agents.shutdown();
        Map<String, Row> rows = awaitQuiet(batch);
        Duration took = Duration.between(started, Instant.now());

        int duplicates = 0;
        int lost = 0;
        int afterRevoke = 0;
        Map<String, Integer> outcomes = new TreeMap<>();
        for (Op op : ops) {
            Row row = rows.getOrDefault(op.key, new Row("never captured", null, false, null));
            List<String> effects = targets.effects(op.system, Agent.downstream(op.key));
            outcomes.merge(row.escalated ? "escalated" : row.status, 1, Integer::sum);
            if (effects.size() > 1) {
                duplicates++;
                System.out.println("duplicate: " + op.key + " at " + op.system + " (fault " + op.fault + "): " + effects + "; " + story(op.key));
            }
            // no effect: the row must not claim one; an effect: the row names it, or a person has it
            boolean accounted = effects.isEmpty() ? !row.status.equals("succeeded")
                    : row.escalated || row.status.equals("succeeded") && effects.contains(row.objectId);
            lost += accounted && (row.settled() || row.waiting()) ? 0 : 1;
            if (op.revoke != null && !effects.isEmpty() && !leasedBefore(op.key, revokedAt.get(op.key))) {
                afterRevoke++;
            }
        }
        System.out.printf("adversarial run: %d operations (seed %d) through 2 instances in %.1f s; faults %s; revokes %s;"
                        + " outages %s; outcomes %s; answers %s; duplicates %d; lost %d; dispatch-after-revoke %d; 5xx outside outages %d%n",
                OPERATIONS, SEED, took.toMillis() / 1000.0, faults, revokes, outageCounts, outcomes, new TreeMap<>(answers), duplicates,
                lost, afterRevoke, outsideOutages.size());
        assertEquals(0, duplicates, "no key may have two objects at its target");
        assertEquals(0, lost, "every accepted operation ends settled or waiting on a named party, its effect accounted for");
        assertEquals(0, afterRevoke, "no request may follow a committed revoke");
        assertEquals(List.of(), outsideOutages, "no 5xx but 503 inside an outage (or a retry-later, a retries-exhausted)");
        assertTrue(answers.keySet().stream().anyMatch(a -> a.contains("journal-unavailable")), "the outages were seen: " + answers);
        assertTrue(!answers.containsKey("no answer"), "both gateways answered every call: " + answers);
        synchronized (outages) {
            outages.forEach(w -> run.outage(History.Away.JOURNAL, w.from, w.to.plus(OUTAGE_TAIL)));
        }
        Verdict verdict = run.judge(AdversarialRunIT::connect);
        System.out.println("adversarial run: " + verdict.report());
        assertTrue(verdict.clean(), verdict.report());
    }

    /** While the agents work: PostgreSQL restarted, then A's connections cut, then A black-holed for a while. */
    private Map<String, Integer> breakTheJournal() throws Exception {
        Thread.sleep(4_000);
        Window restart = outage();
        postgres.close(); // pg_ctl stop -m fast: every session terminated, the port closed
        Thread.sleep(3_000);
        postgres = LocalStack.postgres(dataDirectory, postgresPort);
        restart.end();
        Thread.sleep(4_000);
        Window cut = outage();
        proxy.cut();
        cut.end();
        Thread.sleep(4_000);
        Window blackHole = outage();
        proxy.blackHole();
        Thread.sleep(3_000);
        proxy.restore();
        blackHole.end();
        return new TreeMap<>(Map.of("postgres_restart", 1, "connections_cut", 1, "black_hole", 1));
    }

    private Window outage() {
        Window window = new Window(Instant.now());
        outages.add(window);
        return window;
    }

    /** One agent's work on one operation: retry as told until a final answer, approving (and revoking) on the way. */
    private void untilFinal(Op op, Random random) {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        boolean approved = false;
        while (Instant.now().isBefore(deadline)) {
            Agent.Answer answer = call(op, random);
            String problem = answer == null ? "" : problemOf(answer);
            int status = answer == null ? -1 : answer.status();
            if (status == 200 || status == 201 || status == 422 || (status == 409 && problem.equals("approval-lapsed"))
                    || problem.equals("retries-exhausted")) {
                return;
            }
            if (problem.equals("approval-required") && !approved) {
                approved = approve(op);
                if (approved && op.revoke == Revoke.BEFORE_DISPATCH) {
                    revoke(op);
                }
            } else if (status == 202 && problem.equals("outcome-unknown") && op.revoke == Revoke.WHILE_UNKNOWN
                    && !revokedAt.containsKey(op.key) && resetFired(op)) {
                revoke(op); // the look-up that follows finds nothing: it must not send again
            }
            pause(answer);
        }
    }

    private Agent.Answer call(Op op, Random random) {
        GatewayProcess gateway = random.nextBoolean() ? gatewayA : gatewayB;
        try {
            // tokens are issued once, through A: both instances share the journal, and issuing again would rotate them
            Agent.Answer answer = run.call(op.key, () -> new Agent(gateway.baseUrl(), "agent-a", gatewayA.baseUrl()).submit(op.key, op.body));
            if (answer == null) {
                answers.merge("no answer", 1, Integer::sum);
                return null;
            }
            count(answer);
            return answer;
        } catch (UncheckedIOException e) {
            answers.merge("no answer", 1, Integer::sum);
            return null;
        }
    }

    private void count(Agent.Answer answer) {
        String problem = problemOf(answer);
        answers.merge(answer.status() + (problem.isEmpty() ? "" : " " + problem), 1, Integer::sum);
        boolean outageAnswer = answer.status() == 503 && problem.equals("journal-unavailable");
        boolean expected5xx = problem.equals("target-unavailable") || problem.equals("retries-exhausted");
        if (answer.status() >= 500 && !expected5xx && !(outageAnswer && duringAnOutage(Instant.now()))) {
            outsideOutages.add(answer.status() + " " + problem + " " + answer.body());
        }
    }

    private boolean duringAnOutage(Instant at) {
        synchronized (outages) {
            return outages.stream().anyMatch(window -> window.covers(at));
        }
    }

    private static String problemOf(Agent.Answer answer) {
        String type = answer.header("Content-Type");
        return type != null && type.contains("problem+json") ? answer.problem() : "";
    }

    private boolean approve(Op op) {
        Agent approver = new Agent(gatewayB.baseUrl(), "approver", gatewayA.baseUrl());
        try {
            Agent.Answer record = approver.find(op.key);
            if (record.status() != 200) {
                return false;
            }
            Agent.Answer granted = approver.send(HttpRequest.newBuilder(URI.create(gatewayB.baseUrl() + "/api/v1/approvals"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"operation_key\":\"" + op.key + "\",\"request_hash\":\""
                            + record.json().getString("request_hash") + "\",\"expires_in_seconds\":3600}")));
            return granted.status() == 200 || granted.status() == 201;
        } catch (UncheckedIOException e) {
            return false;
        }
    }

    /**
     * Whether the reset armed for {@code op} has been taken: only then is its unknown the reset's. An outage can leave
     * a leased attempt unknown before anything was sent; revoked then, it would never be sent, and its armed reset never
     * fire (the checker's {@code ARMED_FAULT_FIRED}, as in one run of 240). Left alone, it is looked up, sent, and reset.
     */
    private boolean resetFired(Op op) {
        String match = Agent.downstream(op.key);
        return targets.fired(op.system).stream().anyMatch(f -> f.match().equals(match) && f.fault().equals(op.fault));
    }

    private void revoke(Op op) {
        Agent approver = new Agent(gatewayB.baseUrl(), "approver", gatewayA.baseUrl());
        for (int tries = 0; tries < 20; tries++) {
            try {
                Agent.Answer record = approver.find(op.key);
                if (record.status() == 200 && record.json().get("approval") instanceof jakarta.json.JsonObject approval) {
                    String id = approval.getString("approval_id");
                    Agent.Answer revoked = approver.send(HttpRequest.newBuilder(URI.create(gatewayB.baseUrl() + "/api/v1/approvals/"
                            + URLEncoder.encode(id, StandardCharsets.UTF_8) + "?reason=adversarial")).DELETE());
                    if (revoked.status() / 100 == 2) {
                        revokedAt.put(op.key, Instant.now()); // committed by the time the answer arrived
                        return;
                    }
                }
            } catch (UncheckedIOException e) {
                // the journal may be away right now: try again
            }
            sleep(500);
        }
        throw new AssertionError("could not revoke the approval of " + op.key);
    }

    private static void pause(Agent.Answer answer) {
        String after = answer == null ? null : answer.header("Retry-After");
        long seconds = after == null ? 1 : Math.min(2, Math.max(1, Long.parseLong(after.trim())));
        sleep(seconds * 500);
    }

    /** Until no operation of the batch is unfinished (started, unknown and not escalated, retryable). */
    private Map<String, Row> awaitQuiet(String batch) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        Map<String, Row> rows = rows(batch);
        while (Instant.now().isBefore(deadline) && !rows.values().stream().allMatch(r -> r.settled() || r.waiting())) {
            Thread.sleep(1_000);
            rows = rows(batch);
        }
        return rows;
    }

    /** Whether an attempt after the first was leased before {@code revoked}: its request was permitted before the revoke. */
    private static boolean leasedBefore(String key, Instant revoked) throws SQLException {
        try (Connection c = connect(); PreparedStatement q = c.prepareStatement("SELECT count(*) FROM operation_event"
                + " WHERE operation_key = ? AND kind = 'attempt_started' AND attempt > 1 AND occurred_at < ?")) {
            q.setString(1, key);
            q.setTimestamp(2, java.sql.Timestamp.from(revoked == null ? Instant.EPOCH : revoked));
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getInt(1) > 0;
            }
        }
    }

    /** The journal's events of {@code key}, one line each, for a failure message. */
    private static String story(String key) throws SQLException {
        StringBuilder story = new StringBuilder();
        try (Connection c = connect(); PreparedStatement q = c.prepareStatement("SELECT occurred_at, kind, attempt, actor, detail"
                + " FROM operation_event WHERE operation_key = ? ORDER BY id")) {
            q.setString(1, key);
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    story.append("\n  ").append(r.getTimestamp(1).toInstant()).append(' ').append(r.getString(2)).append(" #")
                            .append(r.getInt(3)).append(' ').append(r.getString(4)).append(": ").append(r.getString(5));
                }
            }
        }
        return story.toString();
    }

    private static Map<String, Row> rows(String batch) throws SQLException {
        Map<String, Row> rows = new HashMap<>();
        try (Connection c = connect(); PreparedStatement q = c.prepareStatement("SELECT operation_key, status, target_object_id,"
                + " escalated_at IS NOT NULL, error_code FROM agent_operation_log WHERE operation_key LIKE ?")) {
            q.setString(1, "test:adversarial:" + batch + "-%");
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    rows.put(r.getString(1), new Row(r.getString(2), r.getString(3), r.getBoolean(4), r.getString(5)));
                }
            }
        }
        return rows;
    }

    private static Connection connect() throws SQLException {
        return postgres.getDatabase("postgres", DATABASE).getConnection();
    }

    private void arm(Op op, String fault) {
        switch (fault) {
            case "none" -> {
            }
            // past the lease, inside the read timeout
            case "slow" -> run.arm(op.key, "delay", 1, match -> targets.arm(op.system, match, "POST", "delay", 1, 4_000));
            // past the read timeout: sent, given up on
            case "timeout" -> run.arm(op.key, "delay", 1, match -> targets.arm(op.system, match, "POST", "delay", 1, 6_000));
            case "pending_then_succeeded" -> run.arm(op.key, fault, 1, match -> targets.armPending(op.system, match, 1_500));
            default -> {
                if (fault.startsWith("status:")) {
                    run.arm(op.key, "status", 1, match -> targets.armStatus(op.system, match, Integer.parseInt(fault.substring(7)), 1));
                } else {
                    run.arm(op.key, fault, 1, match -> targets.arm(op.system, match, fault, 1));
                }
            }
        }
    }

    private static Op op(String batch, int i, Random random, List<String> payments) {
        long amount = 1_000 + random.nextInt(9_000);
        String key = "test:adversarial:" + batch + "-" + i + ":v1";
        return switch (i % 4) {
            case 0 -> new Op("1c", key, Agent.invoice("order-adv-" + i, amount), null);
            case 1 -> new Op("bitrix24", key, "{\"operation\":\"crm.deal.create\",\"target\":\"bitrix24\",\"payload\":{\"title\":\"Сделка "
                    + i + "\",\"amount_minor\":" + amount + ",\"currency\":\"RUB\"}}", null);
            case 2 -> new Op("yookassa", key, "{\"operation\":\"payment.create\",\"target\":\"yookassa\",\"payload\":{\"order_id\":"
                    + "\"order-adv-" + i + "\",\"amount_minor\":" + amount + ",\"currency\":\"RUB\",\"description\":\"Заказ " + i + "\"}}", null);
            default -> new Op("yookassa", key, "{\"operation\":\"payment.refund\",\"target\":\"yookassa\",\"payload\":{\"payment_id\":\""
                    + payments.get(random.nextInt(payments.size())) + "\",\"amount_minor\":" + amount / 100
                    + ",\"currency\":\"RUB\",\"reason\":\"Возврат " + i + "\"}}", null);
        };
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private enum Revoke { BEFORE_DISPATCH, WHILE_UNKNOWN }

    /** When the journal was away; a 503 journal-unavailable answer inside it (or just after it) is the outage's answer. */
    private static final class Window {
        private final Instant from;
        private volatile Instant to;

        Window(Instant from) {
            this.from = from;
        }

        void end() {
            to = Instant.now();
        }

        boolean covers(Instant at) {
            Instant until = to;
            return !at.isBefore(from) && (until == null || !at.isAfter(until.plus(OUTAGE_TAIL)));
        }
    }

    private record Op(String system, String key, String body, Revoke revoke, String fault) {
        Op(String system, String key, String body, Revoke revoke) {
            this(system, key, body, revoke, null);
        }

        boolean approval() {
            return body.contains("\"payment.");
        }

        Op revoked(Revoke how) {
            return new Op(system, key, body, how, fault);
        }

        Op withFault(String armed) {
            return new Op(system, key, body, revoke, armed);
        }
    }

    private record Row(String status, String objectId, boolean escalated, String errorCode) {
        boolean settled() {
            return status.equals("succeeded") || status.equals("failed_final") || (status.equals("unknown") && escalated);
        }

        /** Waiting on a named party: a person's approval, or the caller who alone holds withheld fields. */
        boolean waiting() {
            return status.equals("pending_approval") || (status.equals("failed_retryable") && "awaiting_caller".equals(errorCode));
        }
    }
}
