package dev.toolgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.simulator.SimulatorClient;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Who may do what, tenants kept apart, secrets kept out, limits held (issue 5), on Payara Micro. */
@ExtendWith(ArquillianExtension.class)
class AccessOnMicroIT {

    static final List<String> TEST_CARDS = List.of("4111111111111111", "5500 0000 0000 0004");

    @ArquillianResource
    URL deployment;

    private final SimulatorClient oneC = TestStack.targets();

    @Deployment(testable = false)
    static WebArchive gateway() {
        return MicroDeployment.gatewayWar();
    }

    @Test
    void refusesCallsWithoutALiveToken() {
        Agent anyone = new Agent(baseUrl());
        HttpRequest.Builder submit = post(key("anon"), Agent.invoice("o", 1));

        Agent.Answer none = anyone.sendAnonymously(submit);
        Agent.Answer forged = anyone.sendAnonymously(submit.copy().header("Authorization", "Bearer tg_forged"));
        Agent.Answer probe = anyone.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/nowhere")));

        assertEquals(401, none.status());
        assertEquals("unauthenticated", none.problem());
        assertEquals("Bearer realm=\"toolgate\"", none.header("WWW-Authenticate"));
        assertEquals(401, forged.status());
        assertEquals(401, probe.status(), "an anonymous caller learns nothing, not even which paths exist");
    }

    @Test
    void refusesTheWrongRole() {
        assertEquals(403, new Agent(baseUrl(), "auditor").send(post(key("audit"), Agent.invoice("o", 1))).status());
        assertEquals(403, new Agent(baseUrl(), "approver").send(post(key("approve"), Agent.invoice("o", 1))).status());
        Agent agent = new Agent(baseUrl());
        Agent.Answer reconcile = agent.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/reconciliations"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(403, reconcile.status());
        assertEquals("forbidden", reconcile.problem());
        assertEquals(403, agent.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/principals"))).status());
    }

    @Test
    void anotherTenantCanNeitherSeeNorReplayAKey() {
        String key = key("tenant");
        Agent acme = new Agent(baseUrl());
        Agent globex = new Agent(baseUrl(), "agent-globex");
        Agent.Answer ours = acme.submit(key, Agent.invoice("order-t", 100));

        Agent.Answer probe = globex.find(key);
        Agent.Answer theirs = globex.submit(key, Agent.invoice("order-t", 100));

        assertEquals(201, ours.status(), ours.body());
        assertEquals(404, probe.status(), "another tenant's key is invisible");
        assertEquals(201, theirs.status(), "the same key in another tenant is another intent: " + theirs.body());
        assertNotEquals(ours.json().getString("target_object_id"), theirs.json().getString("target_object_id"));
        assertEquals(1, oneC.effects("1c", "acme/" + key).size());
        assertEquals(1, oneC.effects("1c", "globex/" + key).size());
    }

    @Test
    void agentsOfOneTenantInheritEachOthersOperations() {
        String key = key("inherit");
        Agent.Answer first = new Agent(baseUrl(), "agent-a").submit(key, Agent.invoice("order-i", 100));
        Agent.Answer replacement = new Agent(baseUrl(), "agent-b").submit(key, Agent.invoice("order-i", 100));

        assertEquals(201, first.status());
        assertEquals(200, replacement.status(), "agent B replays A's result instead of acting again");
        assertEquals(first.body(), replacement.body());
        assertEquals("agent-a", new Agent(baseUrl(), "auditor").find(key).json().getJsonArray("events")
                .getJsonObject(0).getString("actor"));
    }

    @Test
    void adminsManagePrincipalsWithoutARedeploy() {
        String id = "temp-" + UUID.randomUUID().toString().substring(0, 8);
        String first = Credentials.issue(baseUrl(), id, "acme", "auditor");
        assertEquals(404, reader(first).status(), "a live token reads (404: no such key)");

        String rotated = Credentials.issue(baseUrl(), id, "acme", "auditor"); // exists: rotates
        assertEquals(401, reader(first).status(), "the old token stops working at once");
        assertEquals(404, reader(rotated).status());

        Agent.Answer revoked = new Agent(baseUrl()).sendAnonymously(HttpRequest.newBuilder(
                URI.create(baseUrl() + "/api/v1/principals/" + id)).header("Authorization", "Bearer " + TestStack.adminToken()).DELETE());
        assertEquals(204, revoked.status());
        assertEquals(401, reader(rotated).status());
    }

    @Test
    void refusesCardNumbersBeforeStoringAnything() throws Exception {
        long rows = TestStack.journalRows();
        Agent agent = new Agent(baseUrl());
        for (String card : TEST_CARDS) {
            Agent.Answer inField = agent.submit(key("card"), Agent.invoice("order " + card, 100));
            assertEquals(422, inField.status(), inField.body());
            assertEquals("card-number-rejected", inField.problem());
            assertEquals("payload.order_id", inField.json().getString("field", null), inField.body());
            assertFalse(inField.body().contains(card.substring(0, 4) + card.charAt(4)), "the answer never echoes the number");
        }
        Agent.Answer inKey = agent.submit("test:pay:" + TEST_CARDS.get(0).replace(" ", "") + ":v1", Agent.invoice("o", 1));
        assertEquals(422, inKey.status());
        assertEquals(rows, TestStack.journalRows(), "nothing stored");
    }

    @Test
    void refusesOversizedAndTooDeepBodies() {
        Agent agent = new Agent(baseUrl());
        String padding = "x".repeat(70_000);
        String big = Agent.invoice("o", 1).replace("\"o\"", "\"" + padding + "\"");
        // a client sending a large body asks first (Expect: 100-continue) and gets the 413 before sending it
        assertEquals(413, agent.send(post(key("big"), big).expectContinue(true)).status());
        Agent.Answer chunked = agent.send(agent.operations().header("Idempotency-Key", key("chunked"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8)))));
        assertEquals(413, chunked.status(), "a body without Content-Length is cut off at the limit too");
        String deep = "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":"
                + "[".repeat(50) + "]".repeat(50) + "}}";
        Agent.Answer nested = agent.send(post(key("deep"), deep));
        assertEquals(400, nested.status());
        assertEquals("invalid-request", nested.problem());
    }

    @Test
    void aRunawayAgentIsSlowedWithoutStarvingTheOthers() throws Exception {
        String runaway = "runaway-" + UUID.randomUUID().toString().substring(0, 8);
        String token = Credentials.issue(baseUrl(), runaway, "acme", "auditor");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Callable<Agent.Answer>> burst = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            burst.add(() -> reader(token));
        }
        int limited = 0;
        try {
            for (Future<Agent.Answer> answer : pool.invokeAll(burst)) {
                if (answer.get().status() == 429) {
                    limited++;
                    assertNotNull(answer.get().header("Retry-After"));
                }
            }
        } finally {
            pool.shutdown();
        }
        assertTrue(limited > 0, "the burst went past the limit");
        assertEquals(404, new Agent(baseUrl(), "auditor").find(key("other")).status(), "another principal is unaffected");
    }

    @Test
    void keysThatLookLikeInjectionsAreOnlyText() {
        Agent agent = new Agent(baseUrl());
        String key = "test:x:\"},{\"status\":\"succeeded\"}\\" + UUID.randomUUID();
        String quoted = "\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";

        Agent.Answer created = agent.submit(quoted,
                "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"order-\\\"},{\",\"amount_minor\":100,\"currency\":\"RUB\"}}");

        assertEquals(201, created.status(), created.body());
        assertEquals(key, created.json().getString("operation_key"));
        assertEquals("order-\"},{", agent.find(key).json().getJsonObject("payload").getString("order_id"));
    }

    @Test
    void probesAndTheApiDescriptionNeedNoTokenAndMetricsNeedAnOperator() {
        Agent agent = new Agent(baseUrl()); // agent-a: its token is sent only by submit and send
        Agent.Answer live = agent.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/health/live")));
        assertEquals(200, live.status(), live.body());
        Agent.Answer ready = agent.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/health/ready")));
        assertEquals(200, ready.status(), ready.body());
        assertEquals("UP", ready.json().getString("status"));
        Agent.Answer described = agent.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/openapi.yaml")));
        assertEquals(200, described.status());
        assertTrue(described.body().startsWith("openapi: 3.0.3"));
        assertEquals(401, agent.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/metrics"))).status());
        assertEquals(401, agent.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/health/live"))
                .POST(HttpRequest.BodyPublishers.noBody())).status(), "only the GET is public");

        String key = "test:invoice.create:metrics-" + UUID.randomUUID() + ":v1";
        agent.submit(key, Agent.invoice("order-metrics", 700));
        agent.submit(key, Agent.invoice("order-metrics", 700));
        assertEquals(403, agent.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/metrics"))).status(), "agents may not scrape");
        Agent.Answer scraped = new Agent(baseUrl(), "operator").send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/metrics")));
        assertEquals(200, scraped.status(), scraped.body());
        assertTrue(scraped.header("Content-Type").startsWith("text/plain"), scraped.header("Content-Type"));
        for (String series : List.of("toolgate_captures_total{decision=\"execute\"}", "toolgate_captures_total{decision=\"replay\"}",
                "toolgate_target_calls_total{target=\"1c\",error_class=\"none\"}", "toolgate_target_call_seconds_bucket{target=\"1c\",le=\"+Inf\"}",
                "toolgate_outcomes_total{target=\"1c\",status=\"succeeded\"}", "toolgate_reconcile_lag_seconds ",
                "toolgate_operations_unfinished{status=\"unknown\"}")) {
            assertTrue(scraped.body().contains(series), series + " in\n" + scraped.body());
        }
    }

    @Test
    void headerBytesNoClientLibraryWouldSendAreRefused() throws Exception {
        String token = Credentials.token(baseUrl(), "agent-a");
        String head = "POST " + URI.create(baseUrl()).getPath().replaceAll("/$", "") + "/api/v1/operations HTTP/1.1\r\n"
                + "Host: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\nContent-Type: application/json\r\n";
        String body = Agent.invoice("order-raw", 100);
        for (byte[] badKey : List.of("Idempotency-Key: ключ-1\r\n".getBytes(StandardCharsets.UTF_8),
                "Idempotency-Key: a\u0001b\r\n".getBytes(StandardCharsets.ISO_8859_1),
                "Idempotency-Key: \r\n".getBytes(StandardCharsets.ISO_8859_1))) {
            int status = RawHttp.send(baseUrl(), head, badKey, body);
            assertEquals(400, status, new String(badKey, StandardCharsets.UTF_8));
        }
    }

    private Agent.Answer reader(String token) {
        return new Agent(baseUrl()).sendAnonymously(HttpRequest.newBuilder(
                URI.create(baseUrl() + "/api/v1/operations/none-" + UUID.randomUUID())).header("Authorization", "Bearer " + token));
    }

    private HttpRequest.Builder post(String key, String body) {
        return new Agent(baseUrl()).operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private String baseUrl() {
        return MicroDeployment.baseUrl(deployment);
    }

    private static String key(String intent) {
        return "test:invoice.create:" + intent + "-" + UUID.randomUUID() + ":v1";
    }
}
