package dev.toolgate.it.input;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.MicroSuite;
import dev.toolgate.it.support.RawHttp;
import dev.toolgate.it.support.TestStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Requests the gateway must refuse, with a problem and without storing anything: bad keys, bad JSON,
 * unknown operations and targets, invalid payloads, oversized or too deep bodies, header bytes no client
 * library sends; and text that only looks like an injection, which is stored and sent as text.
 */
class BadInputIT extends MicroSuite {

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
        assertEquals("the body may be at most 65536 bytes", chunked.json().getString("detail"), chunked.body());
        String deep = "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":"
                + "[".repeat(50) + "]".repeat(50) + "}}";
        Agent.Answer nested = agent.send(post(key("deep"), deep));
        assertEquals(400, nested.status());
        assertEquals("invalid-request", nested.problem());
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

    private Case expect(int status, String problem, HttpRequest.Builder request) {
        return new Case(status, problem, request);
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
}
