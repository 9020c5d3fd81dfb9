package dev.toolgate.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

/** What the gateway's spans carry, recorded by a real SDK into memory. */
class SpansTest {

    static final OperationAttributes INVOICE = new OperationAttributes("acme", "k:invoice.create:o-1:v1", "invoice.create", "1c");

    private RecordedSpans exported;

    @BeforeEach
    void record() {
        exported = RecordedSpans.start();
    }

    @AfterEach
    void stop() {
        exported.close();
    }

    @Test
    void everyStepCarriesTheOperationItsEnclosingStepNamed() {
        try (Step tool = Spans.step("execute_tool invoice.create", INVOICE)) {
            try (Step capture = Spans.step("toolgate.capture", OperationAttributes.none())) {
                capture.attempt(1);
            }
            try (Step call = Spans.client("HTTP", OperationAttributes.none())) {
                call.request("POST", java.net.URI.create("https://erp.example:8443/odata/Document_Invoice?$format=json"));
            }
        }
        List<SpanData> spans = exported.finished();
        assertEquals(3, spans.size());
        for (SpanData span : spans) {
            assertEquals("k:invoice.create:o-1:v1", span.getAttributes().get(OperationAttributes.OPERATION_KEY), span.getName());
            assertEquals("acme", span.getAttributes().get(OperationAttributes.TENANT));
            assertEquals("invoice.create", span.getAttributes().get(OperationAttributes.OPERATION));
            assertEquals("1c", span.getAttributes().get(OperationAttributes.TARGET));
        }
        SpanData tool = named(spans, "execute_tool invoice.create");
        assertEquals(tool.getSpanId(), named(spans, "toolgate.capture").getParentSpanId());
        assertEquals(tool.getSpanId(), named(spans, "POST").getParentSpanId());
    }

    @Test
    void aProcessSpanKeepsItsOwnKeyWhileItsStepsGoThroughTheFrontDoorsHandOver() {
        OperationAttributes process = new OperationAttributes("acme", "k:order.fulfil:o-1:v1", "order.fulfil", null);
        try (Step server = Spans.server("POST /api/v1/processes", Context.root(), OperationAttributes.none())) {
            Spans.annotateServer(process); // the process names itself on the call's span
            try (Step advance = Spans.step("toolgate.process", process)) {
                Spans.annotateServer(new OperationAttributes("acme", "k:order.fulfil:o-1:v1/invoice", "invoice.create", "1c"));
            }
        }
        for (SpanData span : exported.finished()) {
            assertEquals("k:order.fulfil:o-1:v1", span.getAttributes().get(OperationAttributes.OPERATION_KEY), span.getName());
            assertEquals("order.fulfil", span.getAttributes().get(OperationAttributes.OPERATION), span.getName());
        }
    }

    @Test
    void workThatGoesOnWithARecordedTraceIsInThatTraceUnderTheRecordedSpan() {
        String trace = TraceParent.newTraceId();
        String registered = TraceParent.newSpanId();
        try (Step advance = Spans.continuing("toolgate.process", trace, registered, INVOICE)) {
            try (Step call = Spans.client("HTTP", OperationAttributes.none())) {
                assertEquals("00-" + trace + "-" + call.span().getSpanContext().getSpanId() + "-01", call.traceparent(),
                        "what the target is sent: the recorded trace");
            }
        }
        SpanData advance = named(exported.finished(), "toolgate.process");
        assertEquals(trace, advance.getTraceId());
        assertEquals(registered, advance.getParentSpanId());
        assertEquals(SpanKind.INTERNAL, advance.getKind());
    }

    @Test
    void workThatGoesOnWithATraceRecordedWithoutASpanStaysInThatTrace() {
        String trace = TraceParent.newTraceId();
        try (Step advance = Spans.continuing("toolgate.process", trace, null, INVOICE)) {
            assertEquals(trace, advance.span().getSpanContext().getTraceId(), "tracing was off when it was recorded");
        }
        try (Step advance = Spans.continuing("toolgate.process", null, null, INVOICE)) {
            assertTrue(advance.span().getSpanContext().isValid(), "no trace recorded: a trace of its own");
        }
        assertFalse(exported.finished().get(1).getParentSpanContext().isValid(), "nobody's child");
    }

    @Test
    void aClientSpanNamesTheHostAndMethodButNeverThePathWhereACredentialMayLive() {
        try (Step call = Spans.client("HTTP", OperationAttributes.none())) {
            call.request("POST", java.net.URI.create("https://b24.example/rest/1/s3cr3tw3bh00k/crm.deal.add.json")).answered(503);
        }
        SpanData span = exported.finished().get(0);
        assertEquals(SpanKind.CLIENT, span.getKind());
        assertEquals("POST", span.getName());
        assertEquals("b24.example", span.getAttributes().get(AttributeKey.stringKey("server.address")));
        assertEquals(443L, span.getAttributes().get(AttributeKey.longKey("server.port")));
        assertEquals(503L, span.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
        assertEquals("503", span.getAttributes().get(OperationAttributes.ERROR_TYPE));
        assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode());
        assertFalse(span.getAttributes().toString().contains("s3cr3t"), span.getAttributes().toString());
    }

    @Test
    void aStatusChangeIsAnEventAndTheStatusAfterTheStepAnAttribute() {
        try (Step record = Spans.step("toolgate.record", INVOICE)) {
            record.after("started", "unknown", null).failed("connection_lost");
        }
        try (Step replay = Spans.step("toolgate.capture", INVOICE)) {
            replay.after("succeeded", "succeeded", "obj-1");
        }
        SpanData record = named(exported.finished(), "toolgate.record");
        assertEquals("unknown", record.getAttributes().get(OperationAttributes.STATUS));
        assertEquals("connection_lost", record.getAttributes().get(OperationAttributes.ERROR_TYPE));
        assertEquals(1, record.getEvents().size());
        assertEquals("toolgate.status_changed", record.getEvents().get(0).getName());
        assertEquals("started", record.getEvents().get(0).getAttributes().get(AttributeKey.stringKey("toolgate.status.from")));
        assertEquals("unknown", record.getEvents().get(0).getAttributes().get(AttributeKey.stringKey("toolgate.status.to")));
        SpanData replay = named(exported.finished(), "toolgate.capture");
        assertTrue(replay.getEvents().isEmpty(), "nothing changed");
        assertEquals("obj-1", replay.getAttributes().get(OperationAttributes.TARGET_OBJECT_ID));
    }

    @Test
    void aReconcileItemIsTheRunsChildLinkedToTheSpanThatCapturedTheOperation() {
        Context run;
        Step runStep = Spans.root("toolgate.reconcile", OperationAttributes.none());
        run = runStep.context();
        runStep.close();
        try (Step item = Spans.linked("toolgate.reconcile_item", run, "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", INVOICE)) {
            item.outcome("found");
        }
        try (Step untraced = Spans.linked("toolgate.reconcile_item", run, "4bf92f3577b34da6a3ce929d0e0e4736", null, INVOICE)) {
            untraced.outcome("absent");
        }
        List<SpanData> spans = exported.finished();
        SpanData runSpan = named(spans, "toolgate.reconcile");
        assertFalse(runSpan.getParentSpanContext().isValid(), "a run is nobody's child");
        List<SpanData> items = spans.stream().filter(s -> s.getName().equals("toolgate.reconcile_item")).toList();
        assertEquals(runSpan.getTraceId(), items.get(0).getTraceId());
        assertEquals(runSpan.getSpanId(), items.get(0).getParentSpanId());
        assertEquals(1, items.get(0).getLinks().size());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", items.get(0).getLinks().get(0).getSpanContext().getTraceId());
        assertEquals("00f067aa0ba902b7", items.get(0).getLinks().get(0).getSpanContext().getSpanId());
        assertTrue(items.get(1).getLinks().isEmpty(), "captured with tracing off: nothing to link to");
    }

    @Test
    void aDetachedItemIsCurrentOnlyWhereEnteredAndItsTurnsOnOtherThreadsAreItsChildren() throws Exception {
        Step runStep = Spans.root("toolgate.reconcile", OperationAttributes.none());
        Context run = runStep.context();
        Step item = Spans.linked("toolgate.reconcile_item", run, "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", INVOICE).detach();
        assertEquals(runStep.span().getSpanContext().getSpanId(), Span.current().getSpanContext().getSpanId(),
                "detached: the run is current again on the thread that opened the item");
        Thread turn = new Thread(() -> {
            try (var entered = item.enter(); Step lookup = Spans.step("toolgate.lookup", OperationAttributes.none())) {
                lookup.outcome("absent");
            }
        });
        turn.start();
        turn.join();
        try (Step record = Spans.step("toolgate.record_lookups", OperationAttributes.none())) {
            item.after("unknown", "started", null);
        }
        item.outcome("sent").close();
        runStep.close();
        List<SpanData> spans = exported.finished();
        SpanData itemSpan = named(spans, "toolgate.reconcile_item");
        SpanData lookup = named(spans, "toolgate.lookup");
        assertEquals(itemSpan.getSpanId(), lookup.getParentSpanId(), "the turn on another thread is the item's child");
        assertEquals("k:invoice.create:o-1:v1", lookup.getAttributes().get(OperationAttributes.OPERATION_KEY), "and carries its operation");
        assertEquals(named(spans, "toolgate.reconcile").getSpanId(), named(spans, "toolgate.record_lookups").getParentSpanId(),
                "the chunk's record is the run's, not the item's");
        assertEquals("sent", itemSpan.getAttributes().get(OperationAttributes.OUTCOME));
        assertEquals("started", itemSpan.getAttributes().get(OperationAttributes.STATUS));
    }

    @Test
    void anIncomingCallsTraceIdIsTheOneItsRecordedSpanIsIn() {
        try (Trace trace = Trace.start(null); Step server = Spans.step("POST /mcp", OperationAttributes.none())) {
            assertEquals(Span.current().getSpanContext().getTraceId(), Trace.traceId());
            assertEquals(server.span().getSpanContext().getSpanId(), Spans.currentSpanId());
            assertEquals("00-" + Trace.traceId() + "-" + Spans.currentSpanId() + "-01", server.traceparent());
        }
        try (Trace job = Trace.open("4bf92f3577b34da6a3ce929d0e0e4736", "k"); Step item = Spans.step("toolgate.reconcile_item", INVOICE)) {
            assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", Trace.traceId(), "the job names the operation's own trace in the journal");
        }
    }

    @Test
    void withTracingOffNothingIsRecordedAndNoSpanIdIsKept() {
        Spans.use(OpenTelemetry.noop());
        try (Trace trace = Trace.start("4bf92f3577b34da6a3ce929d0e0e4736"); Step step = Spans.step("toolgate.capture", INVOICE)) {
            assertNull(Spans.currentSpanId());
            assertNull(step.traceparent());
            assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", Trace.traceId());
        }
        assertTrue(exported.finished().isEmpty());
    }

    @Test
    void anSdkThatExportsNothingIsTracingOffAndItsSpansAreNotAdopted() {
        exported.close();
        OpenTelemetrySdk disabled = OpenTelemetrySdk.builder().build(); // what WildFly hands over while OTEL_SDK_DISABLED is unset
        Spans.use(disabled);
        assertFalse(Spans.recording());
        Span serversOwn = disabled.getTracer("server").spanBuilder("POST /api/v1/operations").startSpan();
        try (Trace trace = Trace.start("4bf92f3577b34da6a3ce929d0e0e4736"); var scope = serversOwn.makeCurrent()) {
            assertNull(Spans.currentSpanId(), "not a span anyone will see");
            assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", Trace.traceId(), "the agent's trace, as with no SDK at all");
        }
        exported = RecordedSpans.start();
    }

    @Test
    void anSdkThatSamplesEverythingOutIsStillTracingOn() {
        exported.close();
        Spans.exporting(true);
        Spans.use(OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .setSampler(io.opentelemetry.sdk.trace.samplers.Sampler.alwaysOff()).build()).build());
        assertTrue(Spans.recording(), "a sampler decides per trace; the gateway's steps stay steps");
        exported = RecordedSpans.start();
    }

    @Test
    void withTracingOffTheCallersOwnSpanIsNeitherKeptNorSentOn() {
        Spans.use(OpenTelemetry.noop());
        Context caller = Spans.remoteParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        try (Trace trace = Trace.start("4bf92f3577b34da6a3ce929d0e0e4736");
             Step server = Spans.server("POST /mcp", caller, OperationAttributes.none());
             Step capture = Spans.step("toolgate.capture", INVOICE)) {
            assertNull(Spans.currentSpanId(), "the agent's span is not one of ours to keep");
            assertNull(capture.traceparent(), "a target gets a span id of ours, not the agent's");
            assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", Trace.traceId());
        }
    }

    @Test
    void aTraceparentIsReadWhateverItsCaseAsTheJournalReadsIt() {
        Context caller = Spans.remoteParent(" 00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01 ");
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", Span.fromContext(caller).getSpanContext().getTraceId());
        assertFalse(Span.fromContext(Spans.remoteParent("garbage")).getSpanContext().isValid());
    }

    @Test
    void aCallersIdentifierGoesOnASpanOnlyWhenItIsPlainlyAnIdentifier() {
        assertEquals("tools/call", Spans.identifier("tools/call", 64));
        assertEquals("17", Spans.identifier("17", 128));
        assertNull(Spans.identifier("4111 1111 1111 1111", 128), "a card number");
        assertNull(Spans.identifier("4111111111111111", 128), "a card number, digits only");
        assertNull(Spans.identifier("a b", 128), "not an identifier's characters");
        assertNull(Spans.identifier("x".repeat(129), 128), "too long");
        assertNull(Spans.identifier(null, 128));
    }

    private static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name + " in " + spans));
    }
}
