package dev.toolgate.it.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.checker.Verdict;
import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.RunHistory;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The process fault matrix: {@code -Dtoolgate.process.matrix} processes of the shipped {@code order.fulfil}
 * (default 60: invoice → post → deal → payment, 240 steps) on a gateway of their own, 8 agents at once. Each
 * step gets a fault drawn from a seeded random ({@code -Dtoolgate.process.matrix.seed}, default fixed), or none:
 * drop after commit, 500 before commit, 500 after commit, 503, 429, a delay beyond the 1 s read timeout; one
 * process in six also has its payment refused for good (400), so it compensates: the deal lost, the invoice
 * cancelled, its posting left as it is. Faults of a step that makes an object are armed by the step's key;
 * the postings carry no key, so their faults are armed on {@code /Post}, as many of each kind as were drawn,
 * and hit whichever postings come first (a posting that takes four refusals in a row runs out of attempts,
 * fails for good, and its process compensates: counted, and checked like any other). Agents re-send every
 * unsettled process (same key, same body) each second, as told; the reconcile job runs every second. When all
 * are settled, each step's key is counted at its target: a succeeded step has exactly the one object its
 * record names (a posting exactly once, never re-posted), a step that did not succeed has none, a
 * compensation that succeeded acted once, a completed process was never compensated, a compensated process's
 * invoice is still there, its posting as its step recorded it. Prints one line.
 */
@Lane(3)
class ProcessFaultMatrixIT {

    private static final int PROCESSES = Integer.getInteger("toolgate.process.matrix", 60);
    private static final long SEED = Long.getLong("toolgate.process.matrix.seed", 20261207L);
    private static final String DATABASE = "process_matrix";
    private static final List<String> FAULTS = List.of("none", "drop_response_after_commit", "status:500", "status_after_commit:500",
            "status:503", "status:429", "delay");
    /** What may come before the final refusal of a payment: nothing is made by any of them. */
    private static final List<String> BEFORE_REFUSAL = List.of("none", "status:500", "status:503", "status:429");
    private static final List<String> STEPS = List.of("invoice", "post", "deal", "payment");
    private static final Map<String, String> TARGET = Map.of("invoice", "1c", "post", "1c", "deal", "bitrix24", "payment", "yookassa");
    private static final Set<String> SETTLED = Set.of("completed", "compensated", "failed", "needs_attention");
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    private static GatewayProcess gateway;
    private final SimulatorClient targets = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase(DATABASE));
        config.put("toolgate.approval.required-for", "none"); // approvals have their own tests; here: faults only
        TestStack.fastReconcile(config);
        gateway = TestStack.readyGateway(TestStack.underLoad(config, 1_000), "process-matrix-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
    }

    @Test
    void everyStepOfEveryProcessHasAtMostOneEffectAndEveryProcessSettles() throws Exception {
        Random random = new Random(SEED);
        String batch = UUID.randomUUID().toString().substring(0, 8);
        List<Run> runs = new ArrayList<>();
        Map<String, Integer> faults = new TreeMap<>();
        Map<String, Integer> postFaults = new TreeMap<>();
        RunHistory history = new RunHistory(targets);
        for (int i = 0; i < PROCESSES; i++) {
            String key = "test:pmatrix:" + batch + "-" + i + ":v1";
            String body = "{\"process\":\"order.fulfil\",\"payload\":{\"order_id\":\"order-pm-" + batch + "-" + i
                    + "\",\"amount_minor\":" + (1_000 + random.nextInt(900_000)) + ",\"currency\":\"RUB\"}}";
            boolean refused = random.nextInt(6) == 0;
            STEPS.stream().filter(step -> !step.equals("post")).forEach(step -> history.plan(key + "/" + step, TARGET.get(step), false));
            history.plan(key + "/payment/compensation", "yookassa", false); // no refund is ever called for here
            for (String step : STEPS) {
                String fault = step.equals("payment") && refused
                        ? BEFORE_REFUSAL.get(random.nextInt(BEFORE_REFUSAL.size()))
                        : FAULTS.get(random.nextInt(FAULTS.size()));
                faults.merge(fault, 1, Integer::sum);
                if (step.equals("post")) {
                    postFaults.merge(fault, 1, Integer::sum); // no key in a posting: armed on /Post below, by kind
                } else {
                    if (!fault.equals("none")) {
                        history.arm(key + "/" + step, kind(fault), 1, match -> arm(TARGET.get(step), match, fault, 1));
                    }
                }
            }
            if (refused) { // after whatever came first: YooKassa refuses the payment for good
                history.arm(key + "/payment", "status", 1, match -> targets.armStatus("yookassa", match, 400, 1));
                faults.merge("refused", 1, Integer::sum);
            }
            runs.add(new Run(key, body, refused));
        }
        postFaults.forEach((fault, times) -> arm("1c", "/Post", fault, times));

        Instant started = Instant.now();
        Map<String, String> status = new ConcurrentHashMap<>();
        Map<String, Integer> answers = new ConcurrentHashMap<>();
        ExecutorService agents = Executors.newFixedThreadPool(8);
        try {
            send(agents, runs, status, answers, history);
            while (runs.stream().anyMatch(run -> !SETTLED.contains(status.get(run.key)))
                    && Duration.between(started, Instant.now()).compareTo(DEADLINE) < 0) {
                Thread.sleep(1_000);
                send(agents, runs.stream().filter(run -> !SETTLED.contains(status.get(run.key))).toList(), status, answers, history);
            }
        } finally {
            agents.shutdown();
        }
        Duration took = Duration.between(started, Instant.now());
        List<String> unsettled = new ArrayList<>();
        for (Run run : runs) {
            if (!SETTLED.contains(status.get(run.key))) {
                JsonObject now = read(run.key);
                unsettled.add(run.key + " " + now.getString("status") + ": " + now.getString("detail", ""));
            }
        }
        assertTrue(unsettled.isEmpty(), unsettled.size() + " processes not settled after " + DEADLINE.toSeconds() + " s (answers "
                + answers + "): " + unsettled);

        int duplicates = 0;
        int lost = 0;
        int escalated = 0;
        int exhaustedPosts = 0;
        List<String> wrong = new ArrayList<>(); // what the journal says against what the targets hold, beyond duplicates and losses
        Map<String, Integer> outcomes = new TreeMap<>();
        Map<String, Integer> steps = new TreeMap<>();
        Map<String, Integer> compensations = new TreeMap<>();
        for (Run run : runs) {
            JsonObject process = read(run.key);
            String outcome = process.getString("status");
            outcomes.merge(outcome, 1, Integer::sum);
            // the postings' faults are not a process's own: a posting that met the attempt budget's worth of them in a
            // row (4 refusals, each provably not executed) fails for good, as any operation would, and its process compensates
            JsonObject post = step(process, "post");
            boolean postExhausted = post.getString("status").equals("failed_final")
                    && "retries_exhausted".equals(post.getJsonObject("record").getString("error_code", null));
            exhaustedPosts += postExhausted ? 1 : 0;
            String expected = run.refused || postExhausted ? "compensated" : "completed";
            if (!expected.equals(outcome)) {
                wrong.add(run.key + " ended " + outcome + ", its faults call for " + expected + ": " + process.getString("detail", ""));
            }
            String invoice = null;
            String deal = null;
            for (String name : STEPS) {
                JsonObject step = step(process, name);
                String stepStatus = step.getString("status");
                if (stepStatus.equals("not_started") && !name.equals("post")) {
                    history.neverSent(run.key + "/" + name); // its process ended first: the checker holds nothing reached the target
                }
                steps.merge(stepStatus, 1, Integer::sum);
                JsonObject record = step.getJsonObject("record");
                boolean succeeded = stepStatus.equals("succeeded");
                boolean stepEscalated = record != null && record.containsKey("escalated_at");
                escalated += stepEscalated ? 1 : 0;
                String object = succeeded ? record.getString("target_object_id", null) : null;
                String where = run.key + "/" + name;
                if (name.equals("post")) {
                    if (invoice == null) {
                        if (succeeded) {
                            wrong.add(where + " succeeded without a recorded invoice");
                        }
                        continue;
                    }
                    SimulatorClient.StateCount postings = targets.postings(invoice);
                    if (postings.count() > 1 || postings.repeated() > 0) {
                        duplicates++;
                        wrong.add(where + ": invoice " + invoice + " posted " + postings.count() + " times, re-posted " + postings.repeated());
                    }
                    if (succeeded && postings.count() == 0) {
                        wrong.add(where + " succeeded but invoice " + invoice + " is not posted at 1c");
                    }
                    if (!succeeded && postings.count() > 0 && !stepEscalated) {
                        lost++;
                        wrong.add(where + " is " + stepStatus + " but invoice " + invoice + " was posted");
                    }
                    continue;
                }
                List<String> effects = targets.effects(TARGET.get(name), Agent.downstream(where));
                if (effects.size() > 1) {
                    duplicates++;
                    wrong.add(where + ": " + effects.size() + " objects at " + TARGET.get(name) + " " + effects);
                }
                for (String effect : effects) {
                    if (!effect.equals(object) && !stepEscalated) {
                        lost++;
                        wrong.add(where + " (" + stepStatus + ", names " + object + "): " + effect + " at " + TARGET.get(name)
                                + " is not accounted for");
                    }
                }
                if (succeeded && !effects.contains(object)) {
                    wrong.add(where + " succeeded with " + object + ", which " + TARGET.get(name) + " does not hold: " + effects);
                }
                if (name.equals("invoice")) {
                    invoice = object;
                } else if (name.equals("deal")) {
                    deal = object;
                }
            }
            // compensations: what ran acted once; what did not run left nothing
            compensated(run, process, "invoice", invoice == null ? null : targets.cancellations(invoice), compensations, wrong);
            compensated(run, process, "deal", deal == null ? null : targets.losses(deal), compensations, wrong);
            JsonObject refund = step(process, "payment").getJsonObject("compensation");
            compensations.merge("payment:" + refund.getString("status"), 1, Integer::sum);
            List<String> refunds = targets.effects("yookassa", Agent.downstream(run.key + "/payment/compensation"));
            if (!refunds.isEmpty()) {
                lost++;
                wrong.add(run.key + ": a refund " + refunds + " nothing called for");
            }
            if (outcome.equals("compensated") && invoice != null) {
                if (!List.of(invoice).equals(targets.effects("1c", Agent.downstream(run.key + "/invoice")))) {
                    wrong.add(run.key + ": compensated, but its invoice " + invoice + " is not there as it was");
                }
                int posted = step(process, "post").getString("status").equals("succeeded") ? 1 : 0;
                if (targets.postings(invoice).count() != posted) {
                    wrong.add(run.key + ": compensated, but its invoice's posting is not counted " + posted + " time(s) as its step says: "
                            + targets.postings(invoice));
                }
            }
        }
        answers.forEach((code, count) -> {
            if (!Set.of("200", "201", "202").contains(code)) {
                wrong.add("the gateway answered HTTP " + code + " " + count + " times: an agent is told a process's state, never an error");
            }
        });
        System.out.printf("process fault matrix: %d processes, %d steps (seed %d) in %.1f s; faults %s; outcomes %s; steps by status %s;"
                        + " compensations %s; posts out of attempts %d; answers %s; duplicates %d; lost %d; escalated %d%n", PROCESSES,
                PROCESSES * STEPS.size(), SEED, took.toMillis() / 1000.0, faults, outcomes, steps, compensations, exhaustedPosts, answers,
                duplicates, lost, escalated);
        wrong.forEach(w -> System.out.println("  " + w));
        assertEquals(0, duplicates, "no step's key may have two effects at its target: " + wrong);
        assertEquals(0, lost, "no effect may be unaccounted for by its step's record: " + wrong);
        assertEquals(List.of(), wrong, "each step's record and its target agree, and each process ends as its faults call for");
        Verdict verdict = history.judge(() -> TestStack.connect(DATABASE));
        System.out.println("process fault matrix: " + verdict.report());
        assertTrue(verdict.clean(), verdict.report());
        assertEquals(List.of(), targets.stillArmed("1c").stream().filter(f -> f.match().equals("/Post")).toList(),
                "every fault armed on the postings fired");
    }

    /** A fault as the simulators name its kind: {@code status:503} is a {@code status}. */
    private static String kind(String fault) {
        return fault.contains(":") ? fault.substring(0, fault.indexOf(':')) : fault;
    }

    /**
     * The compensation of {@code name} (invoice: cancelled; deal: lost): counted once at its target when it
     * succeeded, not at all otherwise; never run for a completed process.
     */
    private static void compensated(Run run, JsonObject process, String name, SimulatorClient.StateCount count,
                                    Map<String, Integer> compensations, List<String> wrong) {
        JsonObject compensation = step(process, name).getJsonObject("compensation");
        String status = compensation.getString("status");
        compensations.merge(name + ":" + status, 1, Integer::sum);
        String where = run.key + "/" + name + "/compensation";
        if (count == null) {
            if (!status.equals("not_started")) {
                wrong.add(where + " is " + status + " though its step made nothing");
            }
            return;
        }
        if (status.equals("succeeded")) {
            if (count.count() != 1 || count.repeated() != 0) {
                wrong.add(where + " succeeded; its target counts " + count);
            }
        } else if (count.count() != 0) {
            wrong.add(where + " is " + status + " but its target counts " + count);
        }
        if (process.getString("status").equals("completed") && (count.count() != 0 || !status.equals("not_started"))) {
            wrong.add(run.key + " completed, yet its " + name + " was compensated (" + status + ", " + count + ")");
        }
    }

    /** Every run in {@code batch} sent once, 8 at a time; each one's latest status and answer noted. */
    private static void send(ExecutorService agents, List<Run> batch, Map<String, String> status, Map<String, Integer> answers,
                             RunHistory history) throws Exception {
        List<Future<?>> calls = new ArrayList<>();
        for (Run run : batch) {
            calls.add(agents.submit(() -> {
                Agent.Answer answer = history.callOther(() -> start(run.key, run.body));
                assertTrue(answer != null, "an answer for " + run.key);
                answers.merge(Integer.toString(answer.status()), 1, Integer::sum);
                if (answer.status() == 200 || answer.status() == 201 || answer.status() == 202) {
                    status.put(run.key, answer.json().getString("status"));
                }
                return null;
            }));
        }
        for (Future<?> call : calls) {
            call.get();
        }
    }

    private void arm(String system, String match, String fault, int times) {
        switch (fault) {
            case "none" -> {
            }
            case "delay" -> {
                for (int i = 0; i < times; i++) {
                    targets.armDelay(system, match, 1_500); // beyond the 1 s read timeout: done, and given up on
                }
            }
            case "status_after_commit:500" -> {
                for (int i = 0; i < times; i++) {
                    targets.armStatusAfterCommit(system, match, 500);
                }
            }
            default -> {
                if (fault.startsWith("status:")) {
                    targets.armStatus(system, match, Integer.parseInt(fault.substring(7)), times);
                } else {
                    targets.arm(system, match, fault, times);
                }
            }
        }
    }

    private static Agent.Answer start(String key, String body) {
        return agent().send(HttpRequest.newBuilder(uri("/api/v1/processes")).timeout(Duration.ofSeconds(60)).header("Idempotency-Key", key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static JsonObject read(String key) {
        return agent().send(HttpRequest.newBuilder(uri("/api/v1/processes?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)))).json();
    }

    private static JsonObject step(JsonObject process, String name) {
        return process.getJsonArray("steps").getValuesAs(JsonObject.class).stream().filter(s -> s.getString("name").equals(name))
                .findFirst().orElseThrow();
    }

    private static Agent agent() {
        return new Agent(gateway.baseUrl(), "agent-a");
    }

    private static URI uri(String path) {
        return URI.create(gateway.baseUrl().replaceAll("/$", "") + path);
    }

    private record Run(String key, String body, boolean refused) {
    }
}
