package dev.toolgate.it.deployment;

import static dev.toolgate.it.support.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.checker.History;
import dev.toolgate.checker.Verdict;
import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.JournalRows;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.PreviousRelease;
import dev.toolgate.it.support.RunHistory;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A rolling upgrade under load, with the real code of the previous release (docs/operations.md, "Upgrading"): two
 * instances of the release at {@link #PREVIOUS_RELEASE}, built from this repository's history, serve one journal while
 * agents call, and leave operations in every unfinished state — payments awaiting approval, processes half done,
 * operations waiting for their caller after an outcome nobody could learn, calls in flight. Then the release under
 * test starts beside them (and migrates the journal), the old instances are stopped one by one while agents keep
 * calling through a balancer that sends each call to an instance in rotation, and what the old release captured is
 * approved, resumed and retried on the new one. Last, the way back: the previous release started again on the schema
 * the new one left, and the new one stopped.
 *
 * <p>Judged by the fault suites' checker from what the targets received and the journal holds; besides it, the
 * readiness of every instance is sampled all along: from its first ready answer until it is told to stop, none may
 * say it is not ready, and at every sample at least one instance is.
 */
@Lane(3)
@PreviousRelease.UpgradesFrom(RollingUpgradeIT.SHIPPED_FROM) // built in the background as the run begins
class RollingUpgradeIT {

    /**
     * The release this one upgrades from, moved forward as releases ship. This one is the first whose statements
     * survive a column a newer release adds (AddedColumnIT); the release before it (628a0fe) judged a newer schema by
     * its declared compatibility but answered some calls 500 once the column was there (docs/operations.md, Upgrading).
     * {@code -Dtoolgate.upgrade.from=<commit>} runs the suite from another release: what an upgrade from it would meet.
     */
    static final String SHIPPED_FROM = "7db82f467fd5c52902618db80e0b7f8b6ef38b21";
    static final String PREVIOUS_RELEASE = PreviousRelease.commit(SHIPPED_FROM);
    private static final String DATABASE = "upgrade";
    private static final int AGENTS = 3;
    /** The slowest call the agents make: 3 s at its target. */
    private static final Duration SLOW_CALL = Duration.ofSeconds(3);
    /** An instance's drain, well past the slowest call, as docs/operations.md sizes it for a rolling update. */
    private static final Duration DRAIN = SLOW_CALL.plusSeconds(5);
    /** How long one agent keeps calling for one key before the suite calls it lost. */
    private static final Duration PER_KEY = Duration.ofSeconds(180);

    private static Path previous;
    private static Map<String, String> config;
    private static final Map<String, GatewayProcess> running = new ConcurrentHashMap<>();
    private final SimulatorClient targets = TestStack.targets();
    private final RunHistory run = new RunHistory(targets);
    /** The balancer's rotation: the instances calls go to. */
    private final List<String> rotation = new CopyOnWriteArrayList<>();
    private final AtomicInteger turn = new AtomicInteger();
    private final Readiness readiness = new Readiness();
    /** The agents' load, stopped however the test ends: a failed run must not leave them calling and arming faults. */
    private final AtomicBoolean calling = new AtomicBoolean(true);
    private final ExecutorService agents = Executors.newFixedThreadPool(AGENTS);
    /** Each key's body, as its agent sends it every time. */
    private final Map<String, String> bodies = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        previous = PreviousRelease.runtime(PREVIOUS_RELEASE);
        config = TestStack.configFor(TestStack.newDatabase(DATABASE));
        config.put("toolgate.lease-seconds", "3");
        // the replays send a few hundred calls of one principal within seconds: no rate limit in the way (RateLimitIT's)
        config.put("toolgate.rate-limit.per-second", "100000");
        config.put("toolgate.rate-limit.burst", "100000");
        TestStack.fastReconcile(config);
    }

    @AfterAll
    static void stop() throws Exception {
        for (GatewayProcess gateway : running.values()) {
            TestStack.discard(gateway); // each drained one is gone already; the way back's, done with, needs no drain
        }
    }

    @AfterEach
    void stopCalling() throws InterruptedException {
        calling.set(false);
        agents.shutdownNow();
        readiness.stop();
    }

    @Test
    void aRollingUpgradeUnderLoadLosesNothingRefusesNoOldKeyAndTheWayBackStillServes() throws Exception {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        // the previous release, two instances on one journal
        List<GatewayProcess> olds = List.of(launch(previous, "upgrade-old-a"), launch(previous, "upgrade-old-b"));
        for (GatewayProcess old : olds) {
            old.awaitReady();
            enter(old);
        }
        readiness.start();

        // what the previous release leaves unfinished: payments and processes waiting for an approval, invoices whose
        // outcome nobody could learn and that the job cannot send again (the INN was never kept)
        List<String> payments = new ArrayList<>();
        List<String> waitingForCaller = new ArrayList<>();
        List<String> processes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String key = "test:payment.create:upgrade-" + batch + "-" + i + ":v1";
            payments.add(key);
            plan(key, "yookassa", payment(key));
            Agent.Answer waiting = run.call(key, () -> agent().submit(key, bodies.get(key)));
            assertEquals(202, waiting.status(), waiting.body());
            assertEquals("approval-required", waiting.problem(), waiting.body());
        }
        for (int i = 0; i < 3; i++) {
            String key = "test:invoice.create:upgrade-person-" + batch + "-" + i + ":v1";
            waitingForCaller.add(key);
            plan(key, "1c", Agent.invoiceToPerson("order-" + key, 4_200));
            run.arm(key, "reset_before_commit", 1, match -> targets.arm("1c", match, "reset_before_commit", 1));
            Agent.Answer unknown = run.call(key, () -> agent().submit(key, bodies.get(key)));
            assertEquals(202, unknown.status(), unknown.body());
        }
        for (int i = 0; i < 2; i++) {
            String key = "test:process:upgrade-" + batch + "-" + i + ":v1";
            processes.add(key);
            run.plan(key + "/invoice", "1c", false);
            run.plan(key + "/deal", "bitrix24", false);
            run.plan(key + "/payment", "yookassa", false);
            Agent.Answer half = run.callOther(() -> startProcess(key));
            assertEquals(202, half.status(), half.body());
            assertEquals("awaiting_approval", half.json().getString("status"), half.body());
        }
        for (String key : waitingForCaller) {
            await(() -> "failed_retryable".equals(status(key)), key + " to wait for its caller");
        }

        // agents call all along, each through the balancer until its operation is done; every fifth call takes 3 s at
        // its target, so that some are in flight whenever an instance stops (its drain lets them finish)
        AtomicInteger sequence = new AtomicInteger();
        List<Future<?>> work = new ArrayList<>();
        for (int a = 0; a < AGENTS; a++) {
            work.add(agents.submit(() -> {
                while (calling.get()) {
                    callUntilDone(sequence.getAndIncrement(), batch);
                }
                return null;
            }));
        }
        Thread.sleep(2_000);

        // the release under test starts beside them and migrates the journal; the previous release stays ready on it
        GatewayProcess fresh = launch(TestStack.runtime(), "upgrade-new").awaitReady();
        enter(fresh);
        Thread.sleep(1_000);
        String release = journalCheck(fresh).getJsonObject("data").getString("release");
        assertTrue(release.matches("[^+]+\\+[0-9a-f]{12}"), "the new release names its version and commit: " + release);
        List<String> fits = new ArrayList<>();
        for (GatewayProcess old : olds) {
            JsonObject journal = journalCheck(old);
            assertEquals("UP", journal.getString("status"), "the previous release on the migrated journal: " + journal);
            assertEquals("newer_compatible", journal.getJsonObject("data").getString("schema_fit"), journal.toString());
            fits.add(journal.getJsonObject("data").getString("schema_fit"));
        }
        // then each old instance is stopped while agents call, as a rolling update stops them
        for (GatewayProcess old : olds) {
            drain(old);
        }

        // what the previous release left unfinished, finished by the new one
        for (String key : payments) {
            approve(fresh, key);
            Agent.Answer paid = run.call(key, () -> agent().submit(key, bodies.get(key)));
            assertEquals(201, paid.status(), paid.body());
        }
        for (String key : waitingForCaller) { // its caller sends it again, with the INN the journal never kept
            Agent.Answer sent = run.call(key, () -> agent().submit(key, bodies.get(key)));
            assertEquals(201, sent.status(), sent.body());
        }
        for (String key : processes) {
            approve(fresh, key + "/payment");
            await(() -> {
                Agent.Answer followUp = run.callOther(() -> startProcess(key));
                return followUp != null && followUp.status() == 200 && followUp.json().getString("status").equals("completed");
            }, key + " to complete on the new release", Duration.ofSeconds(60));
        }
        // and every operation the previous release captured (the journal says which: it records no release), once done,
        // retried by its agent on the new release: replayed, never refused
        Set<String> byThePrevious = capturedByThePrevious();
        await(() -> statuses(byThePrevious).values().stream().filter("succeeded"::equals).count() == byThePrevious.size(),
                "the previous release's operations to be done", Duration.ofSeconds(120));
        int replayedOnNew = replay(byThePrevious, fresh);
        assertEquals(byThePrevious.size(), replayedOnNew, "every operation of the previous release replayed by the new one");

        // the way back: the previous release again, on the schema the new one left; then the new one stopped
        GatewayProcess back = launch(previous, "upgrade-back").awaitReady();
        enter(back);
        JsonObject backJournal = journalCheck(back);
        assertEquals("UP", backJournal.getString("status"), "the previous release after the upgrade: " + backJournal);
        assertEquals("newer_compatible", backJournal.getJsonObject("data").getString("schema_fit"), backJournal.toString());
        drain(fresh);
        Thread.sleep(2_000);
        calling.set(false);
        for (Future<?> agent : work) {
            agent.get(180, TimeUnit.SECONDS);
        }
        readiness.stop();
        int replayedOnBack = replay(bodies.keySet(), back); // all of it, the new release's included, replayed by the previous one
        assertEquals(bodies.size(), replayedOnBack, "every operation replayed after the way back");

        // the journal says whose work each operation was: the previous release's captures carry no release (it does not
        // know the column), the new one's carry its name
        for (String key : payments) {
            assertEquals(null, capturedRelease("agent_operation_log", "operation_key", key), key);
        }
        for (String key : processes) {
            assertEquals(null, capturedRelease("process_run", "process_key", key), key);
        }
        Map<String, Integer> byRelease = byRelease();
        assertTrue(byRelease.getOrDefault(release, 0) > 0, "operations captured by the new release " + release + ": " + byRelease);

        Verdict verdict = run.judge(() -> TestStack.connect(DATABASE));
        System.out.printf("rolling upgrade from %s: %d operations (%d captured before the upgrade), %d of them replayed by the new"
                        + " release, %d replayed after the way back; previous release's schema fit after the migration %s; captured by release %s;"
                        + " answers %s; readiness %s; %s%n", PREVIOUS_RELEASE.substring(0, 12), bodies.size() + processes.size() * 3,
                byThePrevious.size(), replayedOnNew, replayedOnBack, fits, byRelease, run.byStatus(), readiness, verdict.report());
        assertTrue(verdict.clean(), verdict.report());
        // beyond the checker, which excuses a server's own error while an instance stops: none at all here. A stopping
        // instance's 503 gateway-stopping is the one 5xx, and it tells the agent (or the balancer) to call elsewhere
        for (Map<String, Integer> answers : List.of(run.byStatus(), run.othersByStatus())) {
            assertTrue(answers.keySet().stream().noneMatch(answer -> answer.startsWith("5") && !answer.equals("503 gateway-stopping")),
                    "server errors: " + answers);
        }
        assertTrue(readiness.violations.isEmpty(), "an instance said it was not ready while it served: " + readiness.violations);
        assertTrue(readiness.leastReady.get() >= 1, "a moment with no ready instance: " + readiness);
        assertTrue(byThePrevious.containsAll(payments) && byThePrevious.containsAll(waitingForCaller), "the journal names the"
                + " previous release's work as the suite knows it: " + byThePrevious.size());
        Map<String, String> settled = statuses(bodies.keySet());
        for (String key : bodies.keySet()) {
            assertEquals("succeeded", settled.get(key), key + " settled");
        }
    }

    /** Load call {@code n}: an invoice at 1C or a deal at Bitrix24, some slow, some whose answer is lost. */
    private void callUntilDone(int n, String batch) throws InterruptedException {
        boolean deal = n % 3 == 2;
        String system = deal ? "bitrix24" : "1c";
        String key = (deal ? "test:crm.deal.create:upgrade-" : "test:invoice.create:upgrade-") + batch + "-load-" + n + ":v1";
        plan(key, system, deal ? "{\"operation\":\"crm.deal.create\",\"target\":\"bitrix24\",\"payload\":{\"title\":\"Сделка " + n
                + "\",\"amount_minor\":" + (1_000 + n) + ",\"currency\":\"RUB\"}}" : Agent.invoice("order-" + key, 1_000 + n));
        if (n % 5 == 0) {
            run.arm(key, "delay", 1, match -> targets.armDelay(system, match, SLOW_CALL.toMillis()));
        } else if (n % 7 == 1) {
            run.arm(key, "drop_response_after_commit", 1, match -> targets.arm(system, match, "drop_response_after_commit", 1));
        }
        Instant deadline = Instant.now().plus(PER_KEY);
        while (Instant.now().isBefore(deadline)) {
            Agent.Answer answer = run.call(key, () -> agent().submit(key, bodies.get(key)));
            if (answer != null && (answer.status() == 200 || answer.status() == 201)) {
                return;
            }
            Thread.sleep(300);
        }
        throw new AssertionError(key + " was not done after " + PER_KEY + " of calls");
    }

    /**
     * Each of {@code keys}, which must have succeeded, sent again by its agent with its payload to {@code gateway}: 200,
     * the stored result; returns how many. The journal is read once for all of them, and the agents replay side by side
     * ({@link #AGENTS} at a time, each key once).
     */
    private int replay(Set<String> keys, GatewayProcess gateway) throws Exception {
        Map<String, String> before = statuses(keys);
        for (String key : keys) {
            assertEquals("succeeded", before.get(key), key + " before its replay");
        }
        AtomicInteger replayed = new AtomicInteger();
        ExecutorService replaying = Executors.newFixedThreadPool(AGENTS);
        try {
            List<Future<?>> replays = new ArrayList<>();
            for (String key : keys) {
                replays.add(replaying.submit(() -> {
                    Agent.Answer again = run.call(key, () -> new Agent(gateway.baseUrl()).submit(key, bodies.get(key)));
                    assertTrue(again != null, key + ": no answer to its replay");
                    assertEquals(200, again.status(), key + ": " + again.body());
                    assertEquals("true", again.header("Idempotent-Replayed"), key + ": " + again.body());
                    replayed.incrementAndGet();
                    return null;
                }));
            }
            for (Future<?> replay : replays) {
                try {
                    replay.get(180, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof Error error) {
                        throw error; // the replay's own assertion, as it failed
                    }
                    throw e;
                }
            }
        } finally {
            replaying.shutdownNow();
        }
        return replayed.get();
    }

    private void plan(String key, String system, String body) {
        bodies.put(key, body);
        run.plan(key, system, false);
    }

    /** The next instance in the balancer's rotation. */
    private String next() {
        List<String> now = List.copyOf(rotation);
        return now.get(Math.floorMod(turn.getAndIncrement(), now.size()));
    }

    /** agent-a, calling the next instance in rotation. */
    private Agent agent() {
        return new Agent(next());
    }

    private GatewayProcess launch(Path runtime, String name) throws Exception {
        GatewayProcess gateway = TestStack.startGateway(runtime, LocalStack.freePort(), config, name, DRAIN);
        running.put(name, gateway);
        return gateway;
    }

    private void enter(GatewayProcess gateway) {
        rotation.add(gateway.baseUrl());
        readiness.watch(gateway.baseUrl());
    }

    /**
     * A rolling update's stop: the instance leaves the balancer's rotation as it is told to stop (SIGTERM), its
     * readiness turns DOWN, and the calls it serves finish within its drain. The window is the checker's: a call that
     * picked the instance just before may meet its refusal.
     */
    private void drain(GatewayProcess gateway) throws Exception {
        Instant from = Instant.now();
        readiness.stopping(gateway.baseUrl());
        rotation.remove(gateway.baseUrl());
        Thread stopping = new Thread(() -> {
            try {
                gateway.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        stopping.start();
        await(() -> !readiness.answersReady(gateway.baseUrl()), gateway.baseUrl() + " to leave readiness", Duration.ofSeconds(30));
        stopping.join(60_000);
        readiness.gone(gateway.baseUrl());
        run.outage(History.Away.GATEWAY, from, Instant.now().plusSeconds(1));
    }

    private Agent.Answer startProcess(String key) {
        String gateway = next();
        return new Agent(gateway).send(HttpRequest.newBuilder(URI.create(gateway + "/api/v1/processes"))
                .timeout(Duration.ofSeconds(60)).header("Idempotency-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"process\":\"order.fulfil\",\"payload\":{\"order_id\":\"order-" + key
                        + "\",\"amount_minor\":12500,\"currency\":\"RUB\"}}")));
    }

    private static String payment(String key) {
        return "{\"operation\":\"payment.create\",\"target\":\"yookassa\",\"payload\":{\"order_id\":\"order-" + key
                + "\",\"amount_minor\":77000,\"currency\":\"RUB\",\"description\":\"Заказ\"}}";
    }

    /** The approver approves what it is shown on {@code gateway}: the key and its fingerprint. */
    private static void approve(GatewayProcess gateway, String key) {
        Agent approver = new Agent(gateway.baseUrl(), "approver");
        String fingerprint = approver.find(key).json().getString("request_hash");
        Agent.Answer granted = approver.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api/v1/approvals"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"operation_key\":\"" + key
                        + "\",\"request_hash\":\"" + fingerprint + "\",\"expires_in_seconds\":3600,\"note\":\"checked\"}")));
        assertEquals(201, granted.status(), granted.body());
    }

    /** The journal's check in the instance's readiness answer: its status, the schema's fit, the release. */
    private static JsonObject journalCheck(GatewayProcess gateway) throws Exception {
        HttpResponse<String> answer = Readiness.HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api/health/ready"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return Json.createReader(new StringReader(answer.body())).readObject().getJsonArray("checks").getJsonObject(0);
    }

    private static String capturedRelease(String table, String keyColumn, String key) throws Exception {
        try (Connection c = TestStack.connect(DATABASE);
             PreparedStatement q = c.prepareStatement("SELECT captured_release FROM " + table + " WHERE " + keyColumn + " = ?")) {
            q.setString(1, key);
            try (ResultSet r = q.executeQuery()) {
                assertTrue(r.next(), key + " in " + table);
                return r.getString(1);
            }
        }
    }

    /** The journal's operations by the release that captured them ({@code none}: one that does not record it). */
    private static Map<String, Integer> byRelease() throws Exception {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        try (Connection c = TestStack.connect(DATABASE); ResultSet r = c.createStatement().executeQuery(
                "SELECT coalesce(captured_release, 'none'), count(*) FROM agent_operation_log GROUP BY 1")) {
            while (r.next()) {
                counts.put(r.getString(1), r.getInt(2));
            }
        }
        return counts;
    }

    /** The suite's keys whose rows the previous release captured: it does not know {@code captured_release}. */
    private Set<String> capturedByThePrevious() throws Exception {
        Set<String> keys = new java.util.TreeSet<>();
        try (Connection c = TestStack.connect(DATABASE); PreparedStatement q = c.prepareStatement(
                "SELECT operation_key FROM agent_operation_log WHERE captured_release IS NULL AND operation_key = ANY (?)")) {
            q.setArray(1, c.createArrayOf("text", bodies.keySet().toArray()));
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    keys.add(r.getString(1));
                }
            }
        }
        return keys;
    }

    /** The statuses of {@code keys}' operations in the journal, read by SQL in one statement. */
    private static Map<String, String> statuses(java.util.Collection<String> keys) throws Exception {
        return JournalRows.statuses(() -> TestStack.connect(DATABASE), keys);
    }

    /** The operation's status in the journal, read by SQL. */
    private static String status(String key) throws Exception {
        return JournalRows.status(() -> TestStack.connect(DATABASE), key);
    }

    /**
     * Every instance's readiness, asked every 200 ms, all at once: what a balancer sees. An instance counts from the
     * moment it answered the API until it is told to stop; an answer "not ready" in between is a violation, and so is a
     * sample at which no instance answered ready. A probe that got no answer within 5 s (a loaded host) proves neither:
     * it is counted apart, and a sample whose only non-ready answers are such silences is not counted as none ready.
     */
    private static final class Readiness {
        static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        private final Map<String, Boolean> serving = new ConcurrentHashMap<>(); // url → not told to stop yet
        private final Map<String, Boolean> lastReady = new ConcurrentHashMap<>();
        final List<String> violations = new CopyOnWriteArrayList<>();
        final AtomicInteger leastReady = new AtomicInteger(Integer.MAX_VALUE);
        private final AtomicInteger samples = new AtomicInteger();
        private final AtomicInteger silences = new AtomicInteger();
        private final AtomicBoolean on = new AtomicBoolean();
        private Thread sampler;

        void watch(String url) {
            serving.put(url, true);
            lastReady.put(url, true);
        }

        void stopping(String url) {
            serving.put(url, false);
        }

        void gone(String url) {
            serving.remove(url);
            lastReady.remove(url);
        }

        boolean answersReady(String url) {
            return lastReady.getOrDefault(url, false);
        }

        void start() {
            on.set(true);
            sampler = new Thread(() -> {
                while (on.get()) {
                    sample();
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "readiness");
            sampler.setDaemon(true);
            sampler.start();
        }

        private void sample() {
            Map<String, java.util.concurrent.CompletableFuture<Integer>> probes = new java.util.HashMap<>();
            Map.copyOf(serving).keySet().forEach(url -> probes.put(url, HTTP.sendAsync(HttpRequest.newBuilder(
                            URI.create(url + "/api/health/ready")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding())
                    .thenApply(HttpResponse::statusCode).exceptionally(e -> e.getCause() instanceof java.net.http.HttpTimeoutException ? 0 : -1)));
            int ready = 0;
            boolean silent = false;
            for (Map.Entry<String, java.util.concurrent.CompletableFuture<Integer>> probe : probes.entrySet()) {
                int status = probe.getValue().join(); // 200 ready; 0 no answer in time; -1 refused; else not ready
                lastReady.put(probe.getKey(), status == 200);
                if (status == 200) {
                    ready++;
                } else if (status == 0) {
                    silent = true;
                    silences.incrementAndGet();
                } else if (serving.getOrDefault(probe.getKey(), false)) {
                    violations.add(Instant.now() + " " + probe.getKey() + " answered " + status);
                }
            }
            if (ready > 0 || !silent) {
                leastReady.accumulateAndGet(ready, Math::min);
            }
            samples.incrementAndGet();
        }

        void stop() throws InterruptedException {
            on.set(false);
            if (sampler != null) {
                sampler.join(10_000);
            }
        }

        @Override
        public String toString() {
            return samples.get() + " samples, at least " + leastReady.get() + " ready at each, " + violations.size()
                    + " not-ready answers while serving, " + silences.get() + " probes unanswered within 5 s";
        }
    }
}
