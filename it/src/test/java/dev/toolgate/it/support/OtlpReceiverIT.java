package dev.toolgate.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The test receiver decodes what the real OpenTelemetry SDK exporter sends over OTLP/HTTP protobuf, field by field. */
class OtlpReceiverIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final long START = 1_700_000_000_123_456_789L;

    private OtlpReceiver receiver;

    @BeforeEach
    void start() throws IOException {
        receiver = OtlpReceiver.start();
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    @Test
    void decodesEveryFieldOfARealExport() {
        SpanContext linked = SpanContext.create("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", TraceFlags.getSampled(),
                TraceState.getDefault());
        String traceId;
        String parentId;
        String childId;
        try (SdkTracerProvider provider = provider("none")) {
            Tracer tracer = provider.get("dev.toolgate.it");
            Span parent = tracer.spanBuilder("POST /api/v1/operations").setSpanKind(SpanKind.SERVER)
                    .setStartTimestamp(START, TimeUnit.NANOSECONDS)
                    .setAttribute("http.request.method", "POST").setAttribute("http.response.status_code", 201L)
                    .setAttribute("toolgate.replayed", false).setAttribute("toolgate.ratio", 0.5)
                    .setAttribute(AttributeKey.stringArrayKey("toolgate.targets"), List.of("1c", "bitrix24")).startSpan();
            parent.setStatus(StatusCode.OK);
            Span child = tracer.spanBuilder("1c create").setSpanKind(SpanKind.CLIENT).setParent(Context.root().with(parent))
                    .setStartTimestamp(START + 1_000, TimeUnit.NANOSECONDS)
                    .addLink(linked, Attributes.of(AttributeKey.stringKey("toolgate.link"), "captured")).startSpan();
            child.addEvent("retry", Attributes.of(AttributeKey.longKey("toolgate.attempt"), 2L));
            child.setStatus(StatusCode.ERROR, "target down");
            child.end(START + 2_000, TimeUnit.NANOSECONDS);
            parent.end(START + 3_000, TimeUnit.NANOSECONDS);
            traceId = parent.getSpanContext().getTraceId();
            parentId = parent.getSpanContext().getSpanId();
            childId = child.getSpanContext().getSpanId();
        }

        List<ReceivedSpan> spans = receiver.awaitSpans(received -> received.size() == 2, WAIT);

        // SimpleSpanProcessor exports each span as it ends, each its own request: they may arrive in either order
        ReceivedSpan child = spans.stream().filter(s -> s.spanId().equals(childId)).findFirst().orElseThrow();
        ReceivedSpan parent = spans.stream().filter(s -> s.spanId().equals(parentId)).findFirst().orElseThrow();
        assertEquals(2, receiver.requests());
        assertEquals(spans, receiver.trace(traceId));
        assertEquals(new ReceivedSpan(traceId, parentId, "", "POST /api/v1/operations", "SERVER", "dev.toolgate.it",
                Map.of("http.request.method", "POST", "http.response.status_code", "201", "toolgate.replayed", "false",
                        "toolgate.ratio", "0.5", "toolgate.targets", "1c,bitrix24"),
                parent.resource(), List.of(), List.of(), "OK", START, START + 3_000), parent);
        assertEquals(new ReceivedSpan(traceId, childId, parentId, "1c create", "CLIENT", "dev.toolgate.it", Map.of(),
                parent.resource(), List.of(new ReceivedSpan.Event("retry", Map.of("toolgate.attempt", "2"))),
                List.of(new ReceivedSpan.Link(linked.getTraceId(), linked.getSpanId(), Map.of("toolgate.link", "captured"))),
                "ERROR", START + 1_000, START + 2_000), child);
        assertEquals("otlp-receiver-it", parent.resource().get("service.name"));
        assertEquals("POST", parent.attribute("http.request.method"));
        assertTrue(receiver.rawBodies().stream().anyMatch(body -> new String(body, StandardCharsets.ISO_8859_1).contains("bitrix24")),
                "the raw body holds the attribute values as sent");
    }

    @Test
    void decodesGzipEncodedExports() {
        try (SdkTracerProvider provider = provider("gzip")) {
            provider.get("dev.toolgate.it").spanBuilder("compressed").startSpan().setAttribute("toolgate.secret-probe", "needle").end();
        }

        ReceivedSpan span = receiver.awaitSpans(received -> received.size() == 1, WAIT).get(0);

        assertEquals("compressed", span.name());
        assertEquals("INTERNAL", span.kind());
        assertTrue(new String(receiver.rawBodies().get(0), StandardCharsets.ISO_8859_1).contains("needle"),
                "the raw body is kept gunzipped, so a scan for a string finds it");
    }

    @Test
    void refusesJsonAndTellsWhyWhenSpansDoNotArrive() throws Exception {
        HttpResponse<Void> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(receiver.endpoint() + "/v1/traces"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.discarding());

        AssertionError timedOut = assertThrows(AssertionError.class,
                () -> receiver.awaitSpans(received -> !received.isEmpty(), Duration.ofMillis(200)));

        assertEquals(415, answer.statusCode());
        assertTrue(timedOut.getMessage().contains("0 span(s) from 1 request(s); refused: [415 Content-Type application/json]"),
                timedOut.getMessage());
    }

    /** The SDK as an application builds it, exporting each span at once to the receiver, {@code compression} "gzip" or "none". */
    private SdkTracerProvider provider(String compression) {
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(receiver.endpoint() + "/v1/traces")
                .setCompression(compression).build();
        return SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "otlp-receiver-it"))))
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    }
}
