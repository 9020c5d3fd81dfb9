package dev.toolgate.it.adversity;

import static dev.toolgate.it.support.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.checker.History;
import dev.toolgate.checker.Rule;
import dev.toolgate.checker.Verdict;
import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.PatroniCluster;
import dev.toolgate.it.support.Readiness;
import dev.toolgate.it.support.RunHistory;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The journal on a Patroni pair (support.PatroniCluster) failed over under load: agents call 1C, Bitrix24 and
 * YooKassa with faults armed (a response dropped after the target committed, a call held past the read timeout, a
 * 503) while the primary is killed, stopped or crashed. The gateway reaches the primary through a multi-host JDBC URL
 * with {@code targetServerType=primary}. After each round: every operation the gateway acknowledged (2xx, or 202 with
 * its key) is on the new primary with its outcome; no key has two objects at its target; every effect is accounted
 * for; the unknowns are reconciled. Each round prints how long the gateway answered 503 and when readiness came back.
 *
 * <p>The last round runs the crash of round 3 with asynchronous replication and shows what that setting loses:
 * operations acknowledged to agents that the promoted replica never received. That is the failure the synchronous
 * rounds would show without {@code synchronous_mode}, and why docs/operations.md says to run with it.
 */
@Lane(2)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PatroniFailoverIT {

    /** Set for the round whose replication is asynchronous: the only one where an escalation is in the fault plan. */
    private static volatile boolean asynchronous;

    private static final String DATABASE = "failover";
    private static final int AGENTS = 4;
    private static PatroniCluster cluster;
    private static GatewayProcess gateway;
    private final SimulatorClient targets = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        cluster = PatroniCluster.start();
        cluster.createDatabase(DATABASE);
        Map<String, String> config = DatabaseOutageIT.settlingQuickly(TestStack.configFor(cluster.jdbcUrl(DATABASE)));
        config.put("toolgate.approval.required-for", "none"); // approvals have their own suites; here: the journal's fail-over
        config.put("toolgate.reconcile.max-backoff-seconds", "2");
        gateway = TestStack.readyGateway(TestStack.underLoad(config, 1_000), "failover-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            TestStack.discard(gateway);
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /**
     * SIGKILL to the primary's postmaster, Patroni left running: Patroni finds PostgreSQL gone and brings the pair
     * back, restarting it in place or handing over to the standby, whichever its loop decides first.
     */
    @Test
    @Order(1)
    void aKilledPrimaryPostmasterLosesAndDuplicatesNothingAcknowledged() throws Exception {
        Round round = Round.under(targets, "postmaster killed", load -> cluster.leader().killPostmaster());
        round.assertNothingLostOrDuplicated();
        cluster.awaitPair(Duration.ofSeconds(120));
    }

    /** The primary's Patroni stopped, as an operator or systemd does: a clean switchover to the synchronous standby. */
    @Test
    @Order(2)
    void aStoppedPrimaryPatroniSwitchesOverLosingAndDuplicatingNothing() throws Exception {
        PatroniCluster.Member[] stopped = new PatroniCluster.Member[1];
        Round round = Round.under(targets, "Patroni stopped", load -> {
            stopped[0] = cluster.leader();
            stopped[0].stopPatroni();
        });
        round.assertNothingLostOrDuplicated();
        stopped[0].startPatroni();
        System.out.printf("failover, Patroni stopped: %s back as the standby in %d ms%n", stopped[0].name(),
                cluster.awaitPair(Duration.ofSeconds(120)).toMillis());
    }

    /**
     * The worst case synchronous replication is for: the standby falls behind (its WAL receiver stopped), then the
     * primary's machine dies (Patroni and PostgreSQL killed at once) and the standby is promoted when the leader key
     * lapses. Commits that waited for the standby were never acknowledged, so nothing acknowledged is lost.
     */
    @Test
    @Order(3)
    void aCrashedPrimaryWithALaggingSynchronousStandbyLosesNothingAcknowledged() throws Exception {
        Round round = lagThenCrash("crash, synchronous");
        round.assertNothingLostOrDuplicated();
    }

    /**
     * The same crash with asynchronous replication: the primary went on acknowledging while the standby heard
     * nothing, and the promoted standby has none of it. This is what the synchronous rounds would show without
     * {@code synchronous_mode}; the test fails if the loss it exists to show does not happen.
     */
    @Test
    @Order(4)
    void withAsynchronousReplicationTheSameCrashLosesAcknowledgedOperations() throws Exception {
        cluster.synchronous(false);
        asynchronous = true;
        Round round = lagThenCrash("crash, asynchronous");
        assertTrue(round.acknowledgedMissing > 0, "asynchronous replication should have lost acknowledged operations the"
                + " standby never received: " + round);
        assertTrue(round.verdict.counts().getOrDefault(Rule.ACKNOWLEDGED_EXACTLY_ONCE, 0L) > 0,
                "the checker sees the loss too: " + round.verdict.report());
    }

    /** Stops the standby's WAL receiver, lets the load go on until the primary is ahead, then crashes the primary. */
    private Round lagThenCrash(String name) throws Exception {
        PatroniCluster.Member crashed = cluster.leader();
        PatroniCluster.Member standby = cluster.replica();
        long receiver = standby.walReceiverPid();
        boolean synchronous = !name.endsWith("asynchronous");
        Round round = Round.under(targets, name, load -> {
            PatroniCluster.signal("STOP", receiver);
            int before = load.acknowledged.size();
            if (synchronous) {
                await(() -> waitingOnStandby() > 0, "a commit waiting on the stopped standby", Duration.ofSeconds(30));
            } else {
                await(() -> load.acknowledged.size() >= before + 10, "the primary acknowledging on without its standby",
                        Duration.ofSeconds(30));
            }
            crashed.crash();
            // what the receiver had not read yet goes with it, as with the network to a machine that died
            PatroniCluster.signal("KILL", receiver);
        });
        crashed.startPatroni();
        System.out.printf("failover, %s: %s back as the standby (rewound) in %d ms%n", name, crashed.name(),
                cluster.awaitPair(Duration.ofSeconds(180)).toMillis());
        return round;
    }

    /** Sessions on the primary whose commit waits for the synchronous standby. */
    private static int waitingOnStandby() throws SQLException {
        try (Connection c = cluster.connect("postgres");
             ResultSet r = c.createStatement().executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")) {
            r.next();
            return r.getInt(1);
        }
    }

    /** A fault done to the cluster while agents call; it may look at the load (e.g. to wait until it has moved on). */
    @FunctionalInterface
    private interface Fault {
        void cause(Load load) throws Exception;
    }

    /** One round: agents calling, the fault, the recovery measured, the load stopped, everything settled, the counts. */
    private static final class Round {
        private final String name;
        private int operations;
        private int duplicates;
        private int lost;
        private int acknowledgedMissing;
        private int unsettled;
        private Map<String, Integer> outcomes = new TreeMap<>();
        private final List<String> problems = new ArrayList<>();
        private Verdict verdict;

        private Round(String name) {
            this.name = name;
        }

        static Round under(SimulatorClient targets, String name, Fault fault) throws Exception {
            Round round = new Round(name);
            String batch = UUID.randomUUID().toString().substring(0, 8);
            RunHistory run = new RunHistory(targets);
            Load load = new Load(targets, batch, run);
            load.start();
            await(() -> load.acknowledged.size() >= 20, "the agents under way before the fault");
            int inFlight = load.inFlight.get();
            Readiness.Watch readiness = Readiness.watch(gateway.baseUrl());
            long faulted = System.nanoTime();
            Instant faultedAt = Instant.now();
            fault.cause(load);
            cluster.awaitWritablePrimary(Duration.ofSeconds(120));
            long primaryBack = (System.nanoTime() - faulted) / 1_000_000;
            Readiness.Recovery ready = Readiness.upAfter(gateway.baseUrl(), faulted, Duration.ofSeconds(180));
            // the journal is away from the fault until the gateway is ready on the new primary, and a pooled connection to
            // the old one is found dead on its first use after that (answered 503 and replaced): 10 s of margin
            run.outage(History.Away.JOURNAL, faultedAt, Instant.now().plusSeconds(10));
            int acknowledgedAtReady = load.acknowledged.size();
            await(() -> load.acknowledged.size() >= acknowledgedAtReady + 20, "the agents served again after the fault",
                    Duration.ofSeconds(120));
            load.stop();
            List<String> readinessSeen = readiness.stop();
            round.judge(targets, load, batch, run);
            System.out.printf("failover, %s: %d operations, %d in flight at the fault; a writable primary after %d ms;"
                            + " readiness %s, not ready for %d ms; answers by status %s; 503s for %d ms; outcomes %s; duplicates %d;"
                            + " lost %d (acknowledged and missing %d); unsettled %d%n",
                    name, round.operations, inFlight, primaryBack,
                    readinessSeen, readiness.notReadyMillis(), load.statuses, load.unavailableMillis(), round.outcomes,
                    round.duplicates, round.lost, round.acknowledgedMissing, round.unsettled);
            System.out.println("failover, " + name + ": " + round.verdict.report());
            assertFalse(load.statuses.containsKey(500), "no 500 at any point: " + load.statuses);
            assertFalse(load.statuses.containsKey(-1), "the gateway answered every call: " + load.statuses);
            assertTrue(ready.readyAfterMillis() >= 0, "readiness UP again: " + ready.statuses());
            return round;
        }

        /** Retries what was not acknowledged until settled, waits for the reconcile job, and counts. */
        private void judge(SimulatorClient targets, Load load, String batch, RunHistory run) throws Exception {
            Agent agent = new Agent(gateway.baseUrl());
            Map<String, Row> rows = rows(batch);
            for (int pass = 0; pass < 90 && !settled(load, rows); pass++) {
                for (Op op : load.sent.values()) {
                    Row row = rows.get(op.key);
                    if (!load.acknowledged.containsKey(op.key) && (row == null || !row.settled())) {
                        // the agent's retry with the same key, as it was told; its answer is judged with the rest
                        run.call(op.key, () -> agent.submit(op.key, op.body));
                    }
                }
                Thread.sleep(1_000); // the reconcile job's period: what is unknown is looked up meanwhile
                rows = rows(batch);
            }
            operations = load.sent.size();
            verdict = run.judge(() -> cluster.connect(DATABASE));
            for (Op op : load.sent.values()) {
                Row row = rows.get(op.key);
                List<String> effects = targets.effects(op.system, Agent.downstream(op.key));
                duplicates += effects.size() > 1 ? 1 : 0;
                Acknowledgement ack = load.acknowledged.get(op.key);
                if (row == null) {
                    lost += ack != null || !effects.isEmpty() ? 1 : 0;
                    acknowledgedMissing += ack != null ? 1 : 0;
                    outcomes.merge("absent", 1, Integer::sum);
                    continue;
                }
                outcomes.merge(row.escalated ? "escalated" : row.status, 1, Integer::sum);
                if (!row.settled()) {
                    unsettled++;
                }
                boolean recorded = row.status.equals("succeeded") && effects.contains(row.objectId);
                if (!effects.isEmpty() && !recorded && !row.escalated) {
                    lost++; // an effect the journal does not account for
                }
                if (ack != null && ack.objectId != null && !ack.objectId.equals(row.objectId)) {
                    problems.add(op.key + " was acknowledged with " + ack.objectId + " and recorded with " + row.objectId);
                }
            }
        }

        private static boolean settled(Load load, Map<String, Row> rows) {
            for (Op op : load.sent.values()) {
                Row row = rows.get(op.key);
                if (row == null ? !load.acknowledged.containsKey(op.key) : !row.settled()) {
                    return false;
                }
            }
            return true;
        }

        void assertNothingLostOrDuplicated() {
            assertEquals(0, duplicates, "no key may have two objects at its target: " + this);
            assertEquals(0, lost, "nothing acknowledged may be missing and no effect unaccounted for: " + this);
            assertEquals(0, unsettled, "every operation settled, the unknowns reconciled: " + this);
            assertEquals(List.of(), problems, this.toString());
            assertTrue(verdict.clean(), verdict.report());
        }

        @Override
        public String toString() {
            return name + ": " + operations + " operations, outcomes " + outcomes + ", duplicates " + duplicates + ", lost " + lost
                    + " (acknowledged and missing " + acknowledgedMissing + "), unsettled " + unsettled + ", problems " + problems;
        }
    }

    /**
     * Agents calling with new keys, one after another, until stopped: a third each to 1C, Bitrix24 and YooKassa, one in
     * four with a fault armed at the target. Keeps what each key was answered.
     */
    private static final class Load {
        private final SimulatorClient targets;
        private final String batch;
        private final ExecutorService agents = Executors.newFixedThreadPool(AGENTS);
        private final List<Future<?>> running = new ArrayList<>();
        private final AtomicBoolean stopping = new AtomicBoolean();
        private final AtomicInteger next = new AtomicInteger();
        private final AtomicInteger inFlight = new AtomicInteger();
        private final AtomicLong first503 = new AtomicLong();
        private final AtomicLong last503 = new AtomicLong();
        final ConcurrentMap<String, Op> sent = new ConcurrentHashMap<>();
        final ConcurrentMap<String, Acknowledgement> acknowledged = new ConcurrentHashMap<>();
        final ConcurrentMap<Integer, Integer> statuses = new ConcurrentHashMap<>();

        private final RunHistory run;

        Load(SimulatorClient targets, String batch, RunHistory run) {
            this.targets = targets;
            this.batch = batch;
            this.run = run;
        }

        void start() {
            for (int a = 0; a < AGENTS; a++) {
                running.add(agents.submit(() -> {
                    Agent agent = new Agent(gateway.baseUrl());
                    while (!stopping.get()) {
                        call(agent, op(next.getAndIncrement()));
                    }
                    return null;
                }));
            }
        }

        private void call(Agent agent, Op op) throws InterruptedException {
            sent.put(op.key, op);
            int status;
            inFlight.incrementAndGet();
            try {
                // the gateway itself never stops here: a call with no answer is counted (-1), and the checker refuses it
                Agent.Answer answer = run.call(op.key, () -> agent.submit(op.key, op.body));
                status = answer == null ? -1 : answer.status();
                if (status == 200 || status == 201 || status == 202) {
                    acknowledged.put(op.key, new Acknowledgement(status, answer.operation().getString("target_object_id", null)));
                }
            } finally {
                inFlight.decrementAndGet();
            }
            statuses.merge(status, 1, Integer::sum);
            if (status == 503) {
                long now = System.nanoTime();
                first503.compareAndSet(0, now);
                last503.set(now);
                Thread.sleep(200); // an agent backs off; its key is retried when the round is judged
            }
        }

        private Op op(int i) {
            String key = "test:failover:" + batch + "-" + i + ":v1";
            long amount = 1_000 + i;
            Op op = switch (i % 3) {
                case 0 -> new Op("1c", key, Agent.invoice("order-failover-" + i, amount));
                case 1 -> new Op("bitrix24", key, "{\"operation\":\"crm.deal.create\",\"target\":\"bitrix24\",\"payload\":{\"title\":"
                        + "\"Сделка " + i + "\",\"amount_minor\":" + amount + ",\"currency\":\"RUB\"}}");
                default -> new Op("yookassa", key, "{\"operation\":\"payment.create\",\"target\":\"yookassa\",\"payload\":"
                        + "{\"order_id\":\"order-failover-" + i + "\",\"amount_minor\":" + amount + ",\"currency\":\"RUB\","
                        + "\"description\":\"Заказ " + i + "\"}}");
            };
            // the asynchronous round loses journal rows on purpose: a key sent again after that may be found twice
            run.plan(key, op.system, asynchronous);
            switch (i % 12) {
                case 3 -> run.arm(key, "drop_response_after_commit", 1, match -> targets.arm(op.system, match, "drop_response_after_commit", 1));
                // beyond the 1 s read timeout: sent, then given up on
                case 6 -> run.arm(key, "delay", 1, match -> targets.armDelay(op.system, match, 1_500));
                case 9 -> run.arm(key, "status", 1, match -> targets.armStatus(op.system, match, 503, 1));
                default -> {
                    // no fault
                }
            }
            return op;
        }

        long unavailableMillis() {
            return first503.get() == 0 ? 0 : (last503.get() - first503.get()) / 1_000_000;
        }

        void stop() throws Exception {
            stopping.set(true);
            for (Future<?> agent : running) {
                agent.get(120, TimeUnit.SECONDS);
            }
            agents.shutdown();
        }
    }

    private static Map<String, Row> rows(String batch) throws SQLException {
        Map<String, Row> rows = new HashMap<>();
        try (Connection c = cluster.connect(DATABASE); PreparedStatement q = c.prepareStatement(
                "SELECT operation_key, status, target_object_id, escalated_at IS NOT NULL FROM agent_operation_log WHERE operation_key LIKE ?")) {
            q.setString(1, "test:failover:" + batch + "-%");
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    rows.put(r.getString(1), new Row(r.getString(2), r.getString(3), r.getBoolean(4)));
                }
            }
        }
        return rows;
    }

    private record Op(String system, String key, String body) {
    }

    private record Acknowledgement(int status, String objectId) {
    }

    private record Row(String status, String objectId, boolean escalated) {
        boolean settled() {
            return status.equals("succeeded") || status.equals("failed_final") || (status.equals("unknown") && escalated);
        }
    }
}
