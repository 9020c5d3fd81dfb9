package dev.toolgate.it.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.McpHttp;
import dev.toolgate.it.support.MicroSuite;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * 2026-07-28: "the server MUST treat a client disconnect as cancellation of that request", and MAY ignore it where
 * the work cannot be cancelled. For a side effect that is what Toolgate does, on purpose: before anything reached the
 * gateway nothing is started; once the call was taken, the operation runs to a recorded outcome — a half-sent
 * payment cannot be taken back by closing a socket, and abandoning it would leave it unknown — and the next call
 * with the key returns that outcome. Raw sockets: no client library lets a test hang up at a chosen moment.
 */
class McpDisconnectIT extends MicroSuite {

    /** The target holds the call this long after it arrives: the client hangs up within it; below the read timeout. */
    private static final long TARGET_DELAY_MS = 4_000;

    private static JsonObject invoice(String key) {
        return Json.createObjectBuilder().add("idempotency_key", key).add("order_id", "order-disconnect").add("amount_minor", 2100)
                .add("currency", "RUB").build();
    }

    /** A modern tools/call as raw HTTP/1.1 bytes, its body cut to {@code bodyBytes} (all of it when negative). */
    private byte[] rawCall(String key, int bodyBytes) {
        URI base = URI.create(baseUrl());
        byte[] body = McpHttp.toolCall(7, "invoice_create", invoice(key)).getBytes(StandardCharsets.UTF_8);
        String head = "POST " + base.getRawPath() + "/mcp HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\n"
                + "Authorization: Bearer " + Credentials.token(baseUrl(), "agent-a") + "\r\n"
                + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        int sent = bodyBytes < 0 ? body.length : bodyBytes;
        byte[] request = new byte[headBytes.length + sent];
        System.arraycopy(headBytes, 0, request, 0, headBytes.length);
        System.arraycopy(body, 0, request, headBytes.length, sent);
        return request;
    }

    private void sendAndHangUp(byte[] request, long afterMs) throws IOException, InterruptedException {
        URI base = URI.create(baseUrl());
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            Thread.sleep(afterMs);
        } // closed without reading a byte of the answer
    }

    /**
     * Sends the whole call and hangs up once the simulator counts its create for {@code key} while it holds the request
     * in the armed delay: the document not made yet, the answer not sent. What the call was doing at the hang-up is read
     * at the target, not guessed from a sleep.
     */
    private void sendAndHangUpWhileTheTargetHoldsIt(byte[] request, String key) throws IOException, InterruptedException {
        URI base = URI.create(baseUrl());
        String downstream = Agent.downstream(key);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            long deadline = System.nanoTime() + TARGET_DELAY_MS / 2 * 1_000_000;
            while (oneC.creates("1c", downstream) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(1, oneC.creates("1c", downstream), "the call reached the target before the hang-up");
            assertEquals(List.of(), oneC.effects("1c", downstream), "the target still holds it: no document yet");
        } // closed without reading a byte of the answer
        assertEquals(List.of(), oneC.effects("1c", downstream), "hung up while the target held the request open");
        assertEquals("started", agent().find(key).json().getString("status"), "the call was still in flight at the hang-up");
    }

    @Test
    void startsNothingWhenTheClientHangsUpBeforeItsCallArrived() throws Exception {
        String key = "test:invoice.create:mcp-hangup-early-" + UUID.randomUUID() + ":v1";
        sendAndHangUp(rawCall(key, 40), 200); // headers and part of the body: no call was ever made
        Thread.sleep(1_000);
        assertEquals(404, agent().find(key).status(), "nothing recorded");
        assertEquals(0, oneC.creates("1c", Agent.downstream(key)), "nothing sent");
    }

    @Test
    void runsACallWhoseClientHungUpToARecordedOutcomeThatTheNextCallReturns() throws Exception {
        String key = "test:invoice.create:mcp-hangup-late-" + UUID.randomUUID() + ":v1";
        oneC.arm("1c", key, "POST", "delay", 1, TARGET_DELAY_MS);
        sendAndHangUpWhileTheTargetHoldsIt(rawCall(key, -1), key);

        String status = "";
        for (int i = 0; i < 60 && !"succeeded".equals(status); i++) { // reading the record moves nothing on
            Thread.sleep(500);
            Agent.Answer record = agent().find(key);
            status = record.status() == 200 ? record.json().getString("status") : "";
        }
        assertEquals("succeeded", status, "the abandoned call ran to its recorded outcome by itself");
        HttpResponse<String> next = McpHttp.send(new McpHttp(baseUrl(), "agent-a").modern(8, "tools/call",
                McpHttp.toolParams("invoice_create", invoice(key))));
        JsonObject result = McpHttp.json(next).getJsonObject("result").getJsonObject("structuredContent");
        assertEquals("succeeded", result.getString("outcome"), next.body());
        assertTrue(result.getBoolean("replayed"), "the outcome the hung-up call recorded, not a second execution");
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "one request reached the target");
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size(), "one document at the target");
    }
}
