package dev.toolgate.it.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.MicroSuite;
import dev.toolgate.it.support.RawHttp;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Every status the API sends carries its registered reason phrase in the status line, as read off the wire: on
 * Payara a status its HTTP layer has no name for was sent as {@code 422 CUSTOM} and {@code 429 CUSTOM}. (The EAR
 * on Payara Server and WildFly: {@code EarSuite}.)
 */
class StatusLinesIT extends MicroSuite {

    @Test
    void everyAnswerOfTheApiCarriesItsRegisteredReasonPhrase() throws Exception {
        String token = "Authorization: Bearer " + Credentials.token(baseUrl(), "agent-a");
        String auditor = "Authorization: Bearer " + Credentials.token(baseUrl(), "auditor");
        String key = key("status-lines");
        String invoice = Agent.invoice("order-status-lines", 100);
        String submit = "POST /api/v1/operations HTTP/1.1\r\nContent-Type: application/json\r\n";

        Map<String, String> lines = new LinkedHashMap<>(); // what was sent → the status line it got
        lines.put("HTTP/1.1 200 OK", RawHttp.statusLine(baseUrl(), "GET /api/health/ready HTTP/1.1", ""));
        lines.put("HTTP/1.1 201 Created", RawHttp.statusLine(baseUrl(), submit + token + "\r\nIdempotency-Key: " + key, invoice));
        lines.put("HTTP/1.1 400 Bad Request", RawHttp.statusLine(baseUrl(), submit + token, invoice));
        lines.put("HTTP/1.1 401 Unauthorized", RawHttp.statusLine(baseUrl(), submit + "Idempotency-Key: " + key("no-token"), invoice));
        lines.put("HTTP/1.1 403 Forbidden", RawHttp.statusLine(baseUrl(), submit + auditor + "\r\nIdempotency-Key: " + key("auditor"), invoice));
        lines.put("HTTP/1.1 404 Not Found", RawHttp.statusLine(baseUrl(), "GET /api/v1/operations/" + key("none") + " HTTP/1.1\r\n" + token, ""));
        lines.put("HTTP/1.1 405 Method Not Allowed", RawHttp.statusLine(baseUrl(), "PUT /api/v1/operations HTTP/1.1\r\nContent-Type: application/json\r\n" + token, "{}"));
        lines.put("HTTP/1.1 406 Not Acceptable", RawHttp.statusLine(baseUrl(), "GET /api/v1/operations/" + key + " HTTP/1.1\r\nAccept: text/csv\r\n" + token, ""));
        lines.put("HTTP/1.1 413 Content Too Large", RawHttp.statusLine(baseUrl(), submit + token + "\r\nIdempotency-Key: " + key("big"),
                invoice.replace("order-status-lines", "a".repeat(70_000))));
        lines.put("HTTP/1.1 415 Unsupported Media Type", RawHttp.statusLine(baseUrl(),
                "POST /api/v1/operations HTTP/1.1\r\nContent-Type: text/plain\r\n" + token + "\r\nIdempotency-Key: " + key("text"), invoice));
        lines.put("HTTP/1.1 422 Unprocessable Content", RawHttp.statusLine(baseUrl(), submit + token + "\r\nIdempotency-Key: " + key,
                Agent.invoice("order-status-lines", 200))); // the same key with another payload

        assertEquals(List.copyOf(lines.keySet()), List.copyOf(lines.values()));
    }

    @Test
    void aRateLimitedAnswerCarriesItsRegisteredReasonPhrase() throws Exception {
        String runaway = "runaway-lines-" + UUID.randomUUID().toString().substring(0, 8);
        String head = "GET /api/v1/operations/none HTTP/1.1\r\nAuthorization: Bearer " + Credentials.issue(baseUrl(), runaway, "acme", "auditor");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Callable<String>> burst = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            burst.add(() -> RawHttp.statusLine(baseUrl(), head, ""));
        }
        List<String> limited = new ArrayList<>();
        try {
            for (Future<String> line : pool.invokeAll(burst)) {
                if (line.get().startsWith("HTTP/1.1 429")) {
                    limited.add(line.get());
                }
            }
        } finally {
            pool.shutdown();
        }
        assertTrue(!limited.isEmpty(), "the burst went past the limit");
        assertEquals(List.of("HTTP/1.1 429 Too Many Requests"), limited.stream().distinct().toList());
    }
}
