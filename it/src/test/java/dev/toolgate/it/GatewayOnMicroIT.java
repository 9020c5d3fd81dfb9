package dev.toolgate.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.JsonObject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The gateway on Payara Micro with real PostgreSQL and the 1C simulator in another process:
 * seed 000's verification steps, the uncertain outcomes, concurrency, and bad input.
 */
@ExtendWith(ArquillianExtension.class)
class GatewayOnMicroIT {

    @ArquillianResource
    URL deployment;

    private final SimulatorClient oneC = TestStack.targets();

    @Deployment(testable = false)
    static WebArchive gateway() {
        return MicroDeployment.gatewayWar();
    }

    @Test
    void createsOnceAndReplaysTheSameObject() {
        String key = key("order-demo-1");
        Agent.Answer first = agent().submit(key, Agent.invoice("order-demo-1", 125000));
        Agent.Answer again = agent().submit(key, Agent.invoice("order-demo-1", 125000));

        assertEquals(201, first.status(), first.body());
        assertNotNull(first.header("Location"));
        assertEquals(200, again.status());
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertEquals(first.body(), again.body(), "a replay answers the identical body");
        String objectId = first.json().getString("target_object_id");
        assertEquals(List.of(objectId), oneC.effects("1c", Agent.downstream(key)), "1C holds exactly one document for the key");
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)));
        String record = agent().findByPath(key).body();
        String sameFields = first.body().substring(0, first.body().length() - 1); // the record adds payload and events
        assertTrue(record.startsWith(sameFields), "the record at Location shows the same representation: " + record);
    }

    @Test
    void rejectsSameKeyWithChangedAmountAndCreatesNothing() {
        String key = key("order-demo-2");
        assertEquals(201, agent().submit(key, Agent.invoice("order-demo-2", 125000)).status());

        Agent.Answer changed = agent().submit(key, Agent.invoice("order-demo-2", 125001));

        assertEquals(422, changed.status());
        assertEquals("idempotency-key-reused", changed.problem());
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size());
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "nothing was sent for the changed payload");
    }

    @Test
    void settlesADroppedResponseByLookingUpTheKey() {
        String key = key("order-demo-3");
        oneC.arm("1c", key, "drop_response_after_commit", 1);

        Agent.Answer lost = agent().submit(key, Agent.invoice("order-demo-3", 5000));
        assertEquals(202, lost.status(), lost.body());
        assertEquals("outcome-unknown", lost.problem());
        assertEquals("unknown", lost.operation().getString("status"));
        assertNotNull(lost.header("Retry-After"));

        Agent.Answer settled = agent().submit(key, Agent.invoice("order-demo-3", 5000));
        assertEquals(200, settled.status(), settled.body());
        assertEquals("succeeded", settled.json().getString("status"));
        assertEquals(oneC.effects("1c", Agent.downstream(key)), List.of(settled.json().getString("target_object_id")));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "found by key, never sent again");
        assertEquals(1, oneC.lookups("1c", Agent.downstream(key)));
    }

    @Test
    void sendsAgainOnlyWhenTheLookUpStillFindsNothingAfterTheSettleWindow() throws Exception {
        String key = key("order-demo-4");
        oneC.arm("1c", key, "reset_before_commit", 1);

        assertEquals(202, agent().submit(key, Agent.invoice("order-demo-4", 5000)).status());
        Agent.Answer tooEarly = agent().submit(key, Agent.invoice("order-demo-4", 5000));
        assertEquals(202, tooEarly.status(), "absence inside the settle window proves nothing: " + tooEarly.body());
        Thread.sleep(2_200); // the suite's settle window is 2 s
        Agent.Answer retried = agent().submit(key, Agent.invoice("order-demo-4", 5000));

        assertEquals(201, retried.status(), retried.body());
        assertEquals(2, retried.json().getInt("attempt_count"));
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size());
        assertEquals(2, oneC.lookups("1c", Agent.downstream(key)), "looked up before the second attempt, every time");
    }

    @Test
    void keepsTheOutcomeUnknownWhileTheTargetCannotBeAsked() {
        String key = key("order-demo-5");
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals(202, agent().submit(key, Agent.invoice("order-demo-5", 5000)).status());
        oneC.armStatus("1c", key, 503, 1); // the look-up itself fails

        Agent.Answer unsettled = agent().submit(key, Agent.invoice("order-demo-5", 5000));
        Agent.Answer tooSoon = agent().submit(key, Agent.invoice("order-demo-5", 5000));

        assertEquals(202, unsettled.status(), unsettled.body());
        assertTrue(Instant.parse(unsettled.operation().getString("next_check_at")).isAfter(Instant.now().minusSeconds(1)));
        assertEquals(202, tooSoon.status());
        assertEquals(1, oneC.lookups("1c", Agent.downstream(key)), "no second look-up before next_check_at");
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "never sent again while unknown");
    }

    @Test
    void answersOneOwnerPerKeyUnderConcurrency() throws Exception {
        List<String> keys = new ArrayList<>();
        List<Callable<Agent.Answer>> calls = new ArrayList<>();
        for (int k = 0; k < 5; k++) {
            String key = key("concurrent-" + k);
            keys.add(key);
            oneC.armDelay("1c", key, 800); // hold the owner's call open while the others arrive
        }
        for (int i = 0; i < 20; i++) { // interleaved: every key's requests alternate with the others'
            for (String key : keys) {
                calls.add(() -> agent().submit(key, Agent.invoice(key.split(":")[2], 7000)));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(32);
        List<Future<Agent.Answer>> answers;
        try {
            answers = pool.invokeAll(calls);
        } finally {
            pool.shutdown();
        }

        for (String key : keys) {
            Set<String> objects = new HashSet<>();
            int created = 0;
            for (int i = 0; i < calls.size(); i++) {
                if (!keys.get(i % keys.size()).equals(key)) {
                    continue;
                }
                Agent.Answer answer = answers.get(i).get();
                assertTrue(Set.of(200, 201, 409).contains(answer.status()), answer.body());
                created += answer.status() == 201 ? 1 : 0;
                if (answer.status() != 409) {
                    objects.add(answer.json().getString("target_object_id"));
                }
            }
            assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "exactly one target call for " + key);
            assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size());
            assertEquals(1, created, "exactly one 201 for " + key);
            assertEquals(1, objects.size(), "every answer names the same object");
        }
    }

    @Test
    void replaysATargetRejectionWithItsOriginalStatus() {
        String key = key("order-demo-6");
        oneC.armStatus("1c", key, 400, 1);

        Agent.Answer rejected = agent().submit(key, Agent.invoice("order-demo-6", 5000));
        Agent.Answer replayed = agent().submit(key, Agent.invoice("order-demo-6", 5000));

        assertEquals(422, rejected.status());
        assertEquals("target-rejected", rejected.problem());
        assertEquals("failed_final", rejected.operation().getString("status"));
        assertEquals(422, replayed.status());
        assertEquals("true", replayed.header("Idempotent-Replayed"));
        assertEquals(rejected.body(), replayed.body());
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "a final failure is never sent again");
    }

    @Test
    void retriesATransientFailureWithinTheCallWithBackOff() {
        String key = key("order-demo-7");
        oneC.armStatus("1c", key, 429, 2);

        Agent.Answer answer = agent().submit(key, Agent.invoice("order-demo-7", 5000));

        assertEquals(201, answer.status(), answer.body());
        assertEquals(3, answer.json().getInt("attempt_count"));
        assertEquals(3, oneC.creates("1c", Agent.downstream(key)), "two refused attempts and the one that worked");
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size());
    }

    @Test
    void givesUpAfterTheRetryBudgetAndReplaysThatVerdict() {
        String key = key("order-demo-9");
        oneC.armStatus("1c", key, 429, 4);

        Agent.Answer exhausted = agent().submit(key, Agent.invoice("order-demo-9", 5000));
        Agent.Answer replayed = agent().submit(key, Agent.invoice("order-demo-9", 5000));

        assertEquals(502, exhausted.status(), exhausted.body());
        assertEquals("retries-exhausted", exhausted.problem());
        assertEquals("failed_final", exhausted.operation().getString("status"));
        assertEquals(4, oneC.creates("1c", Agent.downstream(key)), "the seed's budget: 4 attempts, then stop");
        assertEquals(502, replayed.status());
        assertEquals("true", replayed.header("Idempotent-Replayed"));
        assertEquals(4, oneC.creates("1c", Agent.downstream(key)));
    }

    @Test
    void escalatesADuplicateAtOnce() {
        String key = key("order-demo-10");
        OneCDirect.createDocument(Agent.downstream(key)); // someone else already created one carrying our key
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals(202, agent().submit(key, Agent.invoice("order-demo-10", 5000)).status());

        Agent.Answer escalated = agent().submit(key, Agent.invoice("order-demo-10", 5000));

        assertEquals(202, escalated.status(), escalated.body());
        assertNotNull(escalated.operation().getString("escalated_at", null), escalated.body());
        JsonObject record = agent().find(key).json();
        assertTrue(record.getJsonArray("events").stream()
                .anyMatch(e -> e.asJsonObject().getString("kind").equals("escalated")
                        && e.asJsonObject().getString("detail").startsWith("DUPLICATE")), record.toString());
        assertEquals(2, oneC.effects("1c", Agent.downstream(key)).size());
        assertEquals(2, oneC.creates("1c", Agent.downstream(key)), "one by someone else, one by the gateway, none after escalation");
    }

    @Test
    void escalatesWhenLookUpsKeepFailing() throws Exception {
        String key = key("order-demo-11");
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals(202, agent().submit(key, Agent.invoice("order-demo-11", 5000)).status());
        oneC.armStatus("1c", key, 503, 5);

        agent().submit(key, Agent.invoice("order-demo-11", 5000)); // look-up 1 fails; the next is due in 1 s
        Thread.sleep(1_200);
        Agent.Answer second = agent().submit(key, Agent.invoice("order-demo-11", 5000)); // look-up 2 fails: the suite allows 2
        Agent.Answer after = agent().submit(key, Agent.invoice("order-demo-11", 5000));

        assertNotNull(second.operation().getString("escalated_at", null), second.body());
        assertEquals(202, after.status());
        assertEquals(2, oneC.lookups("1c", Agent.downstream(key)), "no automatic look-up once a person has it");
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)));
    }

    @Test
    void keepsAPersonsInnOutOfTheJournalYetSendsIt() throws Exception {
        String key = key("order-person");
        oneC.arm("1c", key, "reset_before_commit", 1);
        assertEquals(202, agent().submit(key, Agent.invoiceToPerson("order-person", 5000)).status());
        Thread.sleep(2_200); // past the settle window: absence now proves nothing was created

        Agent.Answer sent = agent().submit(key, Agent.invoiceToPerson("order-person", 5000));

        assertEquals(201, sent.status(), "the caller's request carries the withheld INN for attempt 2: " + sent.body());
        JsonObject record = agent().find(key).json();
        assertFalse(record.getJsonObject("payload").containsKey("counterparty_inn"));
        assertEquals("counterparty_inn", record.getJsonArray("withheld_fields").getString(0));
        assertFalse(record.toString().contains(Agent.PERSON_INN));
    }

    @Test
    void createsOneCrmDealAndListsBeforeSendingAgain() {
        String key = "test:crm.deal.create:" + UUID.randomUUID() + ":v1";
        String deal = "{\"operation\":\"crm.deal.create\",\"target\":\"bitrix24\",\"payload\":"
                + "{\"title\":\"Поставка\",\"amount_minor\":990000,\"currency\":\"RUB\"}}";
        oneC.armStatus("bitrix24", key, 503, 1); // QUERY_LIMIT_EXCEEDED: not run, retried within the call

        Agent.Answer created = agent().submit(key, deal);
        Agent.Answer replayed = agent().submit(key, deal);

        assertEquals(201, created.status(), created.body());
        assertEquals(2, created.json().getInt("attempt_count"));
        assertEquals(200, replayed.status());
        assertEquals(List.of(created.json().getString("target_object_id")), oneC.effects("bitrix24", Agent.downstream(key)));
        assertEquals(1, oneC.lookups("bitrix24", Agent.downstream(key)), "attempt 2 listed before adding");
    }

    @Test
    void showsTheRecordWithItsEvents() {
        String key = key("order-demo-8");
        agent().submit(key, Agent.invoice("order-demo-8", 990));
        agent().submit(key, Agent.invoice("order-demo-8", 990));

        JsonObject record = agent().find(key).json();

        assertEquals("succeeded", record.getString("status"));
        assertEquals(990, record.getJsonObject("payload").getInt("amount_minor"));
        assertEquals(64, record.getString("request_hash").length());
        assertEquals(List.of("captured", "outcome", "replayed"),
                record.getJsonArray("events").stream().map(e -> e.asJsonObject().getString("kind")).toList());
    }

    @Test
    void refusesBadInputWithAProblemAndStoresNothing() throws Exception {
        long rowsBefore = TestStack.journalRows();
        String valid = Agent.invoice("order-bad", 100);
        List<Executable> cases = new ArrayList<>();
        cases.add(expect(400, "idempotency-key-missing", agent().operations().header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(valid))));
        cases.add(expect(400, "idempotency-key-invalid", post("has space", valid)));
        cases.add(expect(400, "idempotency-key-invalid", post("\"\"", valid)));
        cases.add(expect(400, "idempotency-key-invalid", post("k".repeat(256), valid)));
        cases.add(expect(400, "idempotency-key-invalid", post("\"unterminated", valid)));
        cases.add(expect(400, "idempotency-key-invalid", post(key("two"), valid).header("Idempotency-Key", key("two-b"))));
        cases.add(expect(400, "malformed-json", post(key("bad"), "{\"operation\":")));
        cases.add(expect(400, "malformed-json", post(key("bad"), "not json")));
        cases.add(expect(400, "invalid-request", post(key("bad"), "{\"operation\":\"invoice.create\",\"target\":\"1c\"}")));
        cases.add(expect(400, "unknown-operation", post(key("bad"), valid.replace("invoice.create", "invoice.delete"))));
        cases.add(expect(400, "unknown-target", post(key("bad"), valid.replace("\"1c\"", "\"sap\""))));
        String payment = "{\"operation\":\"payment.create\",\"target\":\"yookassa\","
                + "\"payload\":{\"order_id\":\"o\",\"amount_minor\":1,\"currency\":\"RUB\",\"description\":\"d\"}}";
        cases.add(expect(400, "unknown-target", post(key("bad"), payment.replace("\"yookassa\"", "\"1c\"")))); // not its target
        cases.add(expect(400, "invalid-payload", post(key("bad"), payment.replace("\"d\"", "\"" + "d".repeat(129) + "\"")))); // YooKassa's 128
        cases.add(expect(400, "invalid-payload", post(key("bad"), valid.replace("100", "100.5"))));
        cases.add(expect(400, "invalid-payload", post(key("bad"), valid.replace("100", "-100"))));
        cases.add(expect(400, "invalid-payload", post(key("bad"), valid.replace("\"RUB\"", "\"RUBL\""))));
        cases.add(expect(400, "invalid-payload", post(key("bad"), valid.replace("\"currency\"", "\"discount\":5,\"currency\""))));
        cases.add(expect(400, "invalid-payload", post(key("bad"), valid.replace("\"order-bad\"", "123"))));
        // SQL in a key or a field is only text: stored and sent as such (two rows, 201 each)
        cases.add(expect(201, null, post("test:x:';DROP-TABLE-agent_operation_log;--:" + UUID.randomUUID(), valid)));
        cases.add(expect(201, null, post(key("sql"), valid.replace("order-bad", "'; DROP TABLE agent_operation_log; --"))));
        cases.add(expect(415, "unsupported-media-type", agent().operations().header("Idempotency-Key", key("bad"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(valid))));
        cases.add(expect(405, "method-not-allowed", agent().operations().DELETE()));
        cases.add(expect(404, "operation-not-found", agent().operations().uri(URI.create(
                baseUrl() + "/api/v1/operations/" + UUID.randomUUID())).GET()));
        assertAll(cases);
        assertEquals(rowsBefore + 2, TestStack.journalRows(), "only the two valid requests were stored");
    }

    private Case expect(int status, String problem, HttpRequest.Builder request) {
        return new Case(status, problem, request);
    }

    private HttpRequest.Builder post(String rawKey, String body) {
        return agent().operations().header("Idempotency-Key", rawKey).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** One bad-input case: the request, the status it must get and its problem type (null: not a problem). */
    private final class Case implements Executable {
        private final int status;
        private final String problem;
        private final HttpRequest.Builder request;

        Case(int status, String problem, HttpRequest.Builder request) {
            this.status = status;
            this.problem = problem;
            this.request = request;
        }

        @Override
        public void execute() {
            Agent.Answer answer = agent().send(request);
            // the request's method, path and Idempotency-Key only: never its Authorization header
            HttpRequest sent = request.build();
            String what = sent.method() + " " + sent.uri().getPath() + " key=" + sent.headers().allValues("Idempotency-Key")
                    + " -> " + answer.body();
            assertEquals(status, answer.status(), what);
            if (problem != null) {
                assertEquals("application/problem+json", answer.header("Content-Type"), what);
                assertEquals(problem, answer.problem(), what);
            }
        }
    }

    private Agent agent() {
        return new Agent(baseUrl());
    }

    private String baseUrl() {
        return MicroDeployment.baseUrl(deployment);
    }

    private static String key(String intent) {
        return "test:invoice.create:" + intent + "-" + UUID.randomUUID() + ":v1";
    }
}
