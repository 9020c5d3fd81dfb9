package dev.toolgate.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.targets.tls.TlsSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the client makes of each way a target can fail, against a real socket that fails that way: what was provably
 * not sent, what may have taken effect, and that nothing is ever sent twice by the client itself.
 */
class TargetHttpClientTest {

    private static final Duration CONNECT = Duration.ofMillis(500);
    private static final Duration READ = Duration.ofSeconds(1);

    private final List<String> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch conversationsEnded = new CountDownLatch(1);
    private ServerSocket target;

    @AfterEach
    void stop() throws IOException {
        if (target != null) {
            target.close();
        }
    }

    @Test
    void anyMethodItsHeadersAndItsBodyReachTheTargetAndTheAnswerComesBackWithItsRetryAfter() throws Exception {
        URI uri = serve((request, out) -> answer(out, "429 Too Many Requests", "Retry-After: 7\r\n", "{\"slow\":true}"));
        Exchange exchange = client().send(TargetRequest.of("PATCH", uri, "{\"сумма\":1}")
                .header("Content-Type", "application/json").header("Idempotence-Key", "k-1"));
        assertEquals(new Exchange.Answered(429, "{\"slow\":true}", Duration.ofSeconds(7)), exchange);
        String request = received.get(0);
        assertTrue(request.startsWith("PATCH /t HTTP/1.1\r\n"), request);
        assertTrue(request.toLowerCase(Locale.ROOT).contains("content-type: application/json\r\n"), request);
        assertTrue(request.contains("Idempotence-Key: k-1\r\n"), request);
        assertTrue(request.endsWith("\r\n\r\n{\"сумма\":1}"), "the body in UTF-8: " + request);
    }

    @Test
    void aLookUpAsksForNoProtocolUpgradeAndABodilessPutSaysItsLengthIsZero() throws Exception {
        URI uri = serve((request, out) -> answer(out, "200 OK", "", "{}"));
        TargetHttpClient client = client();
        assertEquals(new Exchange.Answered(200, "{}", null), client.send(TargetRequest.get(uri)));
        assertEquals(new Exchange.Answered(200, "{}", null), client.send(TargetRequest.of("PUT", uri, null)));
        String get = received.get(0).toLowerCase(Locale.ROOT);
        assertTrue(get.startsWith("get /t http/1.1\r\n") && !get.contains("upgrade"), "some proxies refuse an upgrade: " + get);
        assertTrue(received.get(1).toLowerCase(Locale.ROOT).contains("content-length: 0\r\n"), received.get(1));
    }

    /** Its path and query as the adapter wrote them, encoded bytes and all: the client sets the path aside for a step. */
    @Test
    void anEncodedPathAndQueryReachTheTargetAsWritten() throws Exception {
        URI uri = serve((request, out) -> answer(out, "200 OK", "", "{}"));
        String path = "/odata/standard.odata/Document_%D0%A1%D1%87%D0%B5%D1%82?$format=json&$filter=Ref%20eq%20'a%2Fb'";
        TargetHttpClient client = client();
        assertEquals(new Exchange.Answered(200, "{}", null), client.send(TargetRequest.get(URI.create(uri + path))));
        assertEquals(new Exchange.Answered(200, "{}", null), client.send(TargetRequest.of("POST", URI.create(uri + "/a%20b?x=1"), "{}")));
        assertTrue(received.get(0).startsWith("GET /t" + path + " HTTP/1.1\r\n"), received.get(0));
        assertTrue(received.get(0).contains("Host: " + uri.getHost() + ":" + uri.getPort() + "\r\n"), received.get(0));
        assertTrue(received.get(1).startsWith("POST /t/a%20b?x=1 HTTP/1.1\r\n"), received.get(1));
    }

    @Test
    void aRetryAfterThatIsADateOrGarbageCountsAsAbsent() throws Exception {
        URI uri = serve((request, out) -> answer(out, "503 Service Unavailable", "Retry-After: Fri, 31 Dec 2026 23:59:59 GMT\r\n", ""));
        assertEquals(new Exchange.Answered(503, "", null), client().send(TargetRequest.get(uri)));
    }

    @Test
    void aRefusedConnectionIsNotSent() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        assertEquals(new Exchange.NotSent("connect_refused"),
                client().send(TargetRequest.post(URI.create("http://127.0.0.1:" + closed + "/t"), "{}")));
    }

    @Test
    void aTargetThatNeverAnswersIsLostAfterTheReadTimeout() throws Exception {
        URI uri = serve((request, out) -> Thread.sleep(5_000));
        Exchange exchange = assertTimeoutPreemptively(Duration.ofSeconds(4), () -> client().send(TargetRequest.post(uri, "{}")));
        assertEquals(new Exchange.Lost("response_timeout"), exchange);
        assertEquals(1, received.size(), "it was sent once");
    }

    @Test
    void aTargetThatAnswersAByteAtATimeIsLostAtTheDeadlineOfConnectAndReadTimeouts() throws Exception {
        // each byte comes well within the read timeout, so only a deadline over the whole request ends it; a lapsed
        // lease counts on that deadline (RequestTimeouts.longest)
        URI uri = serve((request, out) -> {
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 100; i++) {
                out.write('x');
                out.flush();
                Thread.sleep(300);
            }
        });
        long started = System.nanoTime();
        Exchange exchange = assertTimeoutPreemptively(Duration.ofSeconds(6), () -> client().send(TargetRequest.post(uri, "{}")));
        assertEquals(new Exchange.Lost("response_timeout"), exchange);
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis < 3_000, "ended at the deadline of 1.5 s, not after " + millis + " ms");
    }

    @Test
    void aPostThatMeetsAKeptAliveConnectionTheTargetClosedIsLostAndNeverSentAgain() throws Exception {
        // the first request is answered on a kept-alive connection; the second is read on it and the connection
        // closed unanswered: the effect may exist, so the client must not send it again on a new connection
        URI uri = serve((request, out) -> {
            if (received.size() == 1) {
                answer(out, "200 OK", "", "{}");
            } else {
                throw new IOException("closed unanswered");
            }
        });
        TargetHttpClient client = client();
        assertEquals(new Exchange.Answered(200, "{}", null), client.send(TargetRequest.post(uri, "{\"n\":1}")));
        assertEquals(new Exchange.Lost("connection_lost"), client.send(TargetRequest.post(uri, "{\"n\":2}")));
        Thread.sleep(500); // time for a re-send to arrive, if the client made one
        assertEquals(2, received.size(), "each request arrived once: " + received);
    }

    @Test
    void closingTheClientLetsGoOfTheConnectionItKeptAlive() throws Exception {
        URI uri = serve((request, out) -> answer(out, "200 OK", "", "{}"));
        TargetHttpClient client = client();
        assertEquals(new Exchange.Answered(200, "{}", null), client.send(TargetRequest.get(uri)));
        assertFalse(conversationsEnded.await(300, TimeUnit.MILLISECONDS), "kept alive for the next request");
        client.close();
        assertTrue(conversationsEnded.await(5, TimeUnit.SECONDS), "the target saw the connection close");
    }

    private static TargetHttpClient client() {
        return new TargetHttpClient(CONNECT, READ, TlsSettings.from(name -> Optional.empty(), "t"));
    }

    private interface Script {
        void answer(String request, OutputStream out) throws Exception;
    }

    /** A target on a loopback port that records each request it reads and answers it by {@code script}. */
    private URI serve(Script script) throws IOException {
        target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!target.isClosed()) {
                try {
                    Socket connection = target.accept();
                    Thread handler = new Thread(() -> converse(connection, script));
                    handler.setDaemon(true);
                    handler.start();
                } catch (IOException closed) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        return URI.create("http://127.0.0.1:" + target.getLocalPort() + "/t");
    }

    private void converse(Socket connection, Script script) {
        try (connection) {
            InputStream in = connection.getInputStream();
            OutputStream out = connection.getOutputStream();
            for (String request = read(in); request != null; request = read(in)) {
                received.add(request);
                script.answer(request, out);
                out.flush();
            }
        } catch (Exception e) {
            // the script closed the connection, or the client did
        } finally {
            conversationsEnded.countDown();
        }
    }

    /** One request: its head and as many bytes of body as its Content-Length says; null at the end of the stream. */
    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private static void answer(OutputStream out, String status, String headers, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + "\r\n" + headers + "Content-Length: " + bytes.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
    }
}
