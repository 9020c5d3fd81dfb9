package dev.toolgate.it.reconciliation;

import static dev.toolgate.it.support.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.checker.History;
import dev.toolgate.checker.Verdict;
import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.RunHistory;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Operations that outlive the process that started them: the gateway runs as a process of its own
 * (Payara Micro), killed with SIGKILL mid-call and restarted; the scheduled reconcile job settles
 * what it left behind. Short lease (3 s) and settle window (2 s) so the test does not wait long.
 */
@Lane(2)
class RecoveryIT {

    private static final java.util.concurrent.ExecutorService CALLERS = java.util.concurrent.Executors.newFixedThreadPool(24);
    private static Map<String, String> config;
    private static int port;
    private static GatewayProcess gateway;
    private final SimulatorClient oneC = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        config = TestStack.configFor(TestStack.newDatabase("recovery"));
        config.put("toolgate.lease-seconds", "3");
        config.put("toolgate.reconcile.settle-seconds", "2");
        config.put("toolgate.reconcile.interval-seconds", "1");
        port = LocalStack.freePort();
        gateway = boot();
    }

    @AfterAll
    static void stop() throws Exception {
        CALLERS.shutdown();
        TestStack.discard(gateway);
    }

    @Test
    void aCrashAfterTheTargetCommittedIsSettledByTheJobAfterRestart() throws Exception {
        String key = "test:invoice.create:crash-" + UUID.randomUUID() + ":v1";
        oneC.armDelay("1c", key, 4_000); // 1C takes 4 s, then commits: the window in which we crash
        new Agent(gateway.baseUrl()).submitAsync(key, Agent.invoice("order-crash", 5000));
        await(() -> oneC.creates("1c", Agent.downstream(key)) == 1, "the request to reach 1C");

        gateway.kill(); // SIGKILL: the outcome is never recorded
        await(() -> oneC.effects("1c", Agent.downstream(key)).size() == 1, "1C to commit the document");
        gateway = boot();

        JsonObject settled = awaitStatus(key, "succeeded");
        assertEquals(oneC.effects("1c", Agent.downstream(key)), List.of(settled.getString("target_object_id")), "exactly one document");
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "found by key after the restart, never sent again");
        assertTrue(kinds(settled).containsAll(List.of("lease_expired", "reconciled")), settled.toString());
    }

    @Test
    void anOutcomeFromAnExpiredAttemptDoesNotOverwriteTheNewerAttempt() throws Exception {
        String key = "test:invoice.create:zombie-" + UUID.randomUUID() + ":v1";
        // attempt 1 hangs at 1C for 9 s, well past its 3 s lease, and is then refused without effect
        oneC.armSlowStatus("1c", key, 400, 9_000);
        CompletableFuture<HttpResponse<String>> zombie = new Agent(gateway.baseUrl()).submitAsync(key, Agent.invoice("order-zombie", 5000));

        // meanwhile the job finds the lease expired, looks up (nothing yet), waits until attempt 1's request
        // can no longer be running plus the settle window, and sends attempt 2, which succeeds
        JsonObject succeeded = awaitStatus(key, "succeeded");
        assertEquals(2, succeeded.getInt("attempt_count"));
        HttpResponse<String> late = zombie.get();

        JsonObject after = new Agent(gateway.baseUrl()).find(key).json();
        assertEquals("succeeded", after.getString("status"), "attempt 1's late refusal did not overwrite attempt 2");
        assertEquals(succeeded.getString("target_object_id"), after.getString("target_object_id"));
        assertTrue(after.getJsonArray("events").stream().map(e -> e.asJsonObject())
                .anyMatch(e -> e.getString("kind").equals("outcome_refused") && e.getInt("attempt") == 1), after.toString());
        // its own stale refusal is never its caller's answer: the outcome was still being clarified
        // (attempt 2 waits until attempt 1's request can no longer be running, plus the settle window)
        assertTrue(late.statusCode() == 202 || late.statusCode() == 200, "the zombie's caller: " + late.body());
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size());
    }

    @Test
    void theJobLeavesAResendOfWithheldDataToTheCaller() throws Exception {
        String key = "test:invoice.create:withheld-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", key, "reset_before_commit", 1);
        Agent agent = new Agent(gateway.baseUrl());
        assertEquals(202, agent.submit(key, Agent.invoiceToPerson("order-withheld", 5000)).status());

        // the job finds nothing (after the settle window) but cannot send: the journal never kept the INN
        JsonObject waiting = awaitStatus(key, "failed_retryable");
        assertEquals("awaiting_caller", waiting.getString("error_code"));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "the job sent nothing");

        Agent.Answer sent = agent.submit(key, Agent.invoiceToPerson("order-withheld", 5000));
        assertEquals(201, sent.status(), sent.body());
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size());
    }

    @Test
    void anOrderlyRestartUnderLoadLosesNoAcceptedOperation() throws Exception {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        List<String> keys = new java.util.ArrayList<>();
        RunHistory run = new RunHistory(oneC);
        for (int i = 0; i < 60; i++) {
            keys.add("test:invoice.create:restart-" + batch + "-" + i + ":v1");
            run.plan(keys.get(i), "1c", false);
            if (i % 3 == 0) { // some calls are in flight when the stop comes
                run.arm(keys.get(i), "delay", 1, match -> oneC.armDelay("1c", match, 500));
            }
        }
        java.util.concurrent.ExecutorService agents = java.util.concurrent.Executors.newFixedThreadPool(6);
        List<java.util.concurrent.Future<?>> work = new java.util.ArrayList<>();
        for (int a = 0; a < 6; a++) {
            List<String> mine = keys.subList(a * 10, a * 10 + 10);
            work.add(agents.submit(() -> {
                for (String key : mine) {
                    untilSettled(run, key); // an agent retries with the same key until it has an answer, whatever happens
                }
                return null;
            }));
        }
        Thread.sleep(1_500);
        Instant stopping = Instant.now();
        gateway.close(); // SIGTERM while agents are calling
        gateway = boot();
        run.outage(History.Away.GATEWAY, stopping, Instant.now());
        for (java.util.concurrent.Future<?> agent : work) {
            agent.get(180, java.util.concurrent.TimeUnit.SECONDS);
        }
        agents.shutdown();
        for (String key : keys) {
            assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size(), "one document for " + key);
            assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "sent once: " + key);
        }
        Verdict verdict = run.judge(() -> TestStack.connect("recovery"));
        System.out.println("orderly restart: answers " + run.byStatus() + "; " + verdict.report());
        assertTrue(verdict.clean(), verdict.report());
        assertTrue(run.byStatus().containsKey("503 gateway-stopping") || run.byStatus().containsKey("-1"),
                "the agents met the restart (refused, or told the instance was stopping): " + run.byStatus());
    }

    @Test
    void lostAnswersLookedUpTogetherWhileTheSharedLookUpsMeetFaultsEachEndWithOneDocument() throws Exception {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        RunHistory run = new RunHistory(oneC);
        String lookUps = "shared-" + batch + "-"; // the job's look-ups of these keys, shared or each alone
        // the first shared request fails as a whole (each key then asked alone), the next one asked meets an answer
        // it cannot read, then a rate limit (that key postponed), then a 5xx: the job must settle them all anyway
        oneC.armStatus("1c", lookUps, "GET", 500, 1);
        oneC.arm("1c", lookUps, "GET", "wrong_shape", 1, 0);
        oneC.armStatus("1c", lookUps, "GET", 429, 1);
        oneC.armStatus("1c", lookUps, "GET", 503, 1);
        List<String> keys = new java.util.ArrayList<>();
        Agent agent = new Agent(gateway.baseUrl());
        for (int i = 0; i < 24; i++) {
            String key = "test:invoice.create:" + lookUps + i + ":v1";
            keys.add(key);
            run.plan(key, "1c", false);
            String fault = i % 2 == 0 ? "drop_response_after_commit" : "reset_before_commit"; // created, or not
            run.arm(key, fault, 1, match -> oneC.arm("1c", match, "POST", fault, 1, 0));
        }
        // all at once, so their look-ups fall due together and the job claims them in one chunk
        List<CompletableFuture<Agent.Answer>> calls = keys.stream().map(key -> CompletableFuture.supplyAsync(
                () -> run.call(key, () -> agent.submit(key, Agent.invoice("order-" + key, 700))), CALLERS)).toList();
        for (CompletableFuture<Agent.Answer> call : calls) {
            assertEquals(202, call.get().status(), call.get().body());
        }

        for (String key : keys) { // the job alone settles them: no agent asks until it has
            awaitStatus(key, "succeeded");
        }
        List<Agent.Answer> replays = keys.stream().map(key -> run.call(key, () -> agent.submit(key, Agent.invoice("order-" + key, 700)))).toList();
        Verdict verdict = run.judge(() -> TestStack.connect("recovery"));
        System.out.println("shared look-ups under faults: answers " + run.byStatus() + "; " + verdict.report());
        assertTrue(verdict.clean(), verdict.report());
        for (int i = 0; i < keys.size(); i++) {
            assertEquals(200, replays.get(i).status(), replays.get(i).body());
            assertEquals(1, oneC.effects("1c", Agent.downstream(keys.get(i))).size(), "one document for " + keys.get(i));
        }
        assertEquals(List.of(), oneC.stillArmed("1c").stream().filter(f -> f.match().contains(batch)).toList(), "every fault met");
    }

    /** Every answer is recorded for the checker; none but while the gateway stops and starts (no answer, a bare 404). */
    private void untilSettled(RunHistory run, String key) throws InterruptedException {
        while (true) {
            Agent.Answer answer = run.call(key, () -> new Agent("http://127.0.0.1:" + port).submit(key, Agent.invoice("order-" + key, 900)));
            if (answer != null && (answer.status() == 200 || answer.status() == 201)) {
                return;
            }
            Thread.sleep(300);
        }
    }

    static GatewayProcess boot() throws IOException {
        return TestStack.startGateway(port, config, "recovery-gateway").awaitReady();
    }

    private JsonObject awaitStatus(String key, String status) throws Exception {
        Agent agent = new Agent(gateway.baseUrl());
        JsonObject[] last = new JsonObject[1];
        await(() -> {
            Agent.Answer answer = agent.find(key);
            last[0] = answer.status() == 200 ? answer.json() : null;
            return last[0] != null && last[0].getString("status").equals(status);
        }, key + " to be " + status);
        return last[0];
    }

    static List<String> kinds(JsonObject operation) {
        return operation.getJsonArray("events").stream().map(e -> e.asJsonObject().getString("kind")).toList();
    }
}
