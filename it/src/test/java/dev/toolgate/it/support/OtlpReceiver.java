package dev.toolgate.it.support;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP trace receiver in the test JVM, standing where a collector (or Langfuse) stands in
 * production: {@code POST /v1/traces} with an {@code application/x-protobuf} body, gzip-encoded or
 * not, answered 200 with an empty {@code ExportTraceServiceResponse}. It is what the exporters of
 * Payara 6 and WildFly send when set to {@code http/protobuf}. OTLP/JSON is refused (415): its ids are
 * hex where protobuf's JSON mapping expects base64, and no server here is set to send it.
 * Keeps every span it decoded and, for a scan for secrets, every body it decoded them from, gunzipped
 * (a forbidden string cannot hide in compressed bytes).
 */
public final class OtlpReceiver implements AutoCloseable {

    private static final String TRACES = "/v1/traces";
    private static final String PROTOBUF = "application/x-protobuf";

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<byte[]> bodies = new CopyOnWriteArrayList<>();
    private final List<String> refusals = new CopyOnWriteArrayList<>();
    private final AtomicLong requests = new AtomicLong();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    /** A receiver listening on a free port of 127.0.0.1. */
    public static OtlpReceiver start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        OtlpReceiver receiver = new OtlpReceiver(server);
        server.createContext("/", receiver::handle);
        server.start();
        return receiver;
    }

    /**
     * The base URL an SDK configured with {@code otel.exporter.otlp.endpoint} appends {@code /v1/traces}
     * to; an exporter given a traces endpoint of its own needs {@code endpoint() + "/v1/traces"}.
     */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /**
     * A gateway's settings to trace to {@code endpoint} (this receiver's, or a dead one) over OTLP/HTTP, each
     * batch exported at once: what docs/telemetry.md tells an operator to set, as MicroProfile Config names
     * (the suites pass them in the environment, {@code OTEL_SDK_DISABLED=false} and so on).
     */
    public static Map<String, String> gatewayConfig(String endpoint) {
        return Map.of("otel.sdk.disabled", "false", "otel.exporter.otlp.endpoint", endpoint,
                "otel.exporter.otlp.protocol", "http/protobuf", "otel.service.name", "toolgate", "otel.bsp.schedule.delay", "100");
    }

    /** Every body received so far as one text a search for a forbidden string can run over (protobuf keeps strings as UTF-8). */
    public String exportedText() {
        StringBuilder text = new StringBuilder();
        rawBodies().forEach(body -> text.append(new String(body, StandardCharsets.UTF_8)).append('\n'));
        return text.toString();
    }

    /** Every span received so far, in the order they arrived. */
    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    /** The spans received so far of trace {@code traceId} (hex). */
    public List<ReceivedSpan> trace(String traceId) {
        return spans.stream().filter(span -> span.traceId().equals(traceId)).toList();
    }

    /**
     * Polls until the spans received satisfy {@code until} and returns them; exporters batch and send
     * behind, so a test waits instead of reading once. Fails with what did arrive if not in {@code timeout}.
     */
    public List<ReceivedSpan> awaitSpans(Predicate<List<ReceivedSpan>> until, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            List<ReceivedSpan> received = spans();
            if (until.test(received)) {
                return received;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the spans received in " + timeout + " did not satisfy the test: " + dump(received));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for spans", e);
            }
        }
    }

    /**
     * Waits until no span has arrived for {@code quiet} (a gateway exporting every 100 ms has sent all it
     * recorded), for a test that must see everything — a scan for what must never be exported.
     */
    public List<ReceivedSpan> awaitQuiet(Duration quiet, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        int seen = -1;
        Instant since = Instant.now();
        while (Instant.now().isBefore(deadline)) {
            int now = spans.size();
            if (now != seen) {
                seen = now;
                since = Instant.now();
            } else if (Instant.now().isAfter(since.plus(quiet))) {
                return spans();
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for spans", e);
            }
        }
        throw new AssertionError("spans still arriving after " + timeout);
    }

    /** Every request that reached the receiver, decoded or refused. */
    public long requests() {
        return requests.get();
    }

    /** The body of every export decoded, gunzipped where it came gzip-encoded. */
    public List<byte[]> rawBodies() {
        return List.copyOf(bodies);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            requests.incrementAndGet();
            String contentType = mediaType(exchange.getRequestHeaders().getFirst("Content-Type"));
            if (!exchange.getRequestMethod().equals("POST") || !exchange.getRequestURI().getPath().equals(TRACES)) {
                refuse(exchange, 404, exchange.getRequestMethod() + " " + exchange.getRequestURI());
                return;
            }
            if (!contentType.equals(PROTOBUF)) {
                refuse(exchange, 415, "Content-Type " + contentType);
                return;
            }
            byte[] body;
            try (InputStream in = decoded(exchange)) {
                body = in.readAllBytes();
            }
            ExportTraceServiceRequest request;
            try {
                request = ExportTraceServiceRequest.parseFrom(body);
            } catch (InvalidProtocolBufferException e) {
                refuse(exchange, 400, "undecodable body: " + e.getMessage());
                return;
            }
            bodies.add(body);
            for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
                Map<String, String> resource = attributes(resourceSpans.getResource().getAttributesList());
                for (ScopeSpans scopeSpans : resourceSpans.getScopeSpansList()) {
                    for (Span span : scopeSpans.getSpansList()) {
                        spans.add(received(span, scopeSpans.getScope().getName(), resource));
                    }
                }
            }
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", PROTOBUF);
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        }
    }

    private void refuse(HttpExchange exchange, int status, String why) throws IOException {
        refusals.add(status + " " + why);
        exchange.sendResponseHeaders(status, -1);
    }

    private static InputStream decoded(HttpExchange exchange) throws IOException {
        String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
        InputStream body = exchange.getRequestBody();
        return encoding != null && encoding.equalsIgnoreCase("gzip") ? new GZIPInputStream(body) : body;
    }

    private static String mediaType(String contentType) {
        return contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    }

    private static ReceivedSpan received(Span span, String scope, Map<String, String> resource) {
        List<ReceivedSpan.Event> events = span.getEventsList().stream()
                .map(event -> new ReceivedSpan.Event(event.getName(), attributes(event.getAttributesList()))).toList();
        List<ReceivedSpan.Link> links = span.getLinksList().stream()
                .map(link -> new ReceivedSpan.Link(hex(link.getTraceId()), hex(link.getSpanId()), attributes(link.getAttributesList())))
                .toList();
        return new ReceivedSpan(hex(span.getTraceId()), hex(span.getSpanId()), hex(span.getParentSpanId()), span.getName(),
                withoutPrefix(span.getKind().name(), "SPAN_KIND_"), scope, attributes(span.getAttributesList()), resource,
                events, links, withoutPrefix(span.getStatus().getCode().name(), "STATUS_CODE_"),
                span.getStartTimeUnixNano(), span.getEndTimeUnixNano());
    }

    private static Map<String, String> attributes(List<KeyValue> keyValues) {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (KeyValue keyValue : keyValues) {
            attributes.put(keyValue.getKey(), text(keyValue.getValue()));
        }
        return attributes;
    }

    private static String text(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
            case INT_VALUE -> Long.toString(value.getIntValue());
            case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
            case BYTES_VALUE -> hex(value.getBytesValue());
            case ARRAY_VALUE -> value.getArrayValue().getValuesList().stream().map(OtlpReceiver::text).collect(Collectors.joining(","));
            case KVLIST_VALUE -> attributes(value.getKvlistValue().getValuesList()).toString();
            case VALUE_NOT_SET -> "";
        };
    }

    private static String hex(ByteString bytes) {
        return HexFormat.of().formatHex(bytes.toByteArray());
    }

    private static String withoutPrefix(String name, String prefix) {
        return name.startsWith(prefix) ? name.substring(prefix.length()) : name;
    }

    private String dump(List<ReceivedSpan> received) {
        List<String> lines = new ArrayList<>();
        lines.add(received.size() + " span(s) from " + requests() + " request(s)"
                + (refusals.isEmpty() ? "" : "; refused: " + refusals));
        for (ReceivedSpan span : received) {
            lines.add("  " + span.kind() + " " + span.name() + " [" + span.scope() + "] trace=" + span.traceId() + " span="
                    + span.spanId() + " parent=" + span.parentSpanId() + " status=" + span.statusCode() + " " + span.attributes());
        }
        return String.join("\n", lines);
    }
}
