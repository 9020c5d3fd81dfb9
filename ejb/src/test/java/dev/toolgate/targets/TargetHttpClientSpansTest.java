package dev.toolgate.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.sun.net.httpserver.HttpServer;
import dev.toolgate.targets.tls.TlsSettings;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.RecordedSpans;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** A request to a target as its client span: what went out with it, and what became of it. */
class TargetHttpClientSpansTest {

    private RecordedSpans exported;
    private final AtomicReference<String> received = new AtomicReference<>();
    private HttpServer target;

    @BeforeEach
    void start() throws Exception {
        exported = RecordedSpans.start();
        target = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        target.createContext("/created", exchange -> {
            received.set(exchange.getRequestHeaders().getFirst("traceparent"));
            exchange.sendResponseHeaders(201, -1);
            exchange.close();
        });
        target.start();
    }

    @AfterEach
    void stop() {
        target.stop(0);
        exported.close();
    }

    @Test
    void theTargetReceivesTheClientSpansOwnTraceparentAndTheSpanItsStatus() {
        Exchange exchange = send("/created?secret=s3cr3t");
        assertInstanceOf(Exchange.Answered.class, exchange);
        SpanData client = client();
        assertEquals(SpanKind.CLIENT, client.getKind());
        assertEquals("POST", client.getName());
        assertEquals("00-" + client.getTraceId() + "-" + client.getSpanId() + "-01", received.get());
        assertEquals(201L, client.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
        assertEquals("k:invoice.create:o-1:v1", client.getAttributes().get(OperationAttributes.OPERATION_KEY), "inherited from the attempt");
        assertEquals(false, client.getAttributes().toString().contains("s3cr3t"), "no query string");
    }

    @Test
    void aRequestWhoseAnswerNeverCameIsALostSpanWithTheErrorClassTheJournalRecords() throws Exception {
        Exchange exchange;
        try (ServerSocket dropping = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread reader = new Thread(() -> { // reads the request's head, then closes the connection unanswered
                try (Socket connection = dropping.accept()) {
                    BufferedReader head = new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.US_ASCII));
                    for (String line = head.readLine(); line != null && !line.isEmpty(); line = head.readLine()) {
                        if (line.toLowerCase(java.util.Locale.ROOT).startsWith("traceparent:")) {
                            received.set(line.substring("traceparent:".length()).trim());
                        }
                    }
                } catch (Exception e) {
                    // the test's assertions say what was missing
                }
            });
            reader.start();
            exchange = send(URI.create("http://127.0.0.1:" + dropping.getLocalPort() + "/lost"));
            reader.join(5000);
        }
        SpanData client = client();
        assertEquals(new Exchange.Lost("connection_lost"), exchange);
        assertEquals("connection_lost", client.getAttributes().get(OperationAttributes.ERROR_TYPE));
        assertEquals("lost", client.getAttributes().get(OperationAttributes.OUTCOME));
        assertEquals(StatusCode.ERROR, client.getStatus().getStatusCode());
        assertEquals("00-" + client.getTraceId() + "-" + client.getSpanId() + "-01", received.get(), "it was sent");
    }

    @Test
    void withTracingOffTheTargetStillReceivesATraceparentInTheCallsTrace() {
        Spans.use(OpenTelemetry.noop());
        try (Trace trace = Trace.start("4bf92f3577b34da6a3ce929d0e0e4736")) {
            send("/created");
        }
        assertEquals(true, received.get().startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-"), received.get());
    }

    private Exchange send(String path) {
        return send(URI.create("http://127.0.0.1:" + target.getAddress().getPort() + path));
    }

    private Exchange send(URI uri) {
        TargetHttpClient client = new TargetHttpClient(Duration.ofSeconds(2), Duration.ofSeconds(5),
                TlsSettings.from(name -> Optional.empty(), "t"));
        OperationAttributes operation = new OperationAttributes("acme", "k:invoice.create:o-1:v1", "invoice.create", "1c");
        try (Step attempt = Spans.step("toolgate.attempt", operation)) {
            return client.send(TargetRequest.post(uri, "{}"));
        }
    }

    private SpanData client() {
        return exported.finished().stream().filter(s -> s.getKind() == SpanKind.CLIENT).findFirst().orElseThrow();
    }
}
