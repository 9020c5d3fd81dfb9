package dev.toolgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.RecordedSpans;
import dev.toolgate.trace.Spans;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the tool execution's span says of each answer:
 * <pre>
 * answer                        → toolgate.status   error.type (span status)     toolgate.outcome
 * Done succeeded                → succeeded         —                            —
 * Done succeeded, replayed      → succeeded         —                            replayed
 * Done failed_final             → failed_final      its error code (ERROR)       —
 * OutcomeUnknown                → unknown           its error code (ERROR)       —
 * InProgress, AwaitingApproval  → started, …        —                            —
 * KeyReused                     → the key's row's   idempotency_key_reused (ERROR)
 * </pre>
 */
class ToolExecutionTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
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
    void aSucceededOperationIsAToolExecutionWithItsObjectAndNoError() {
        SpanData span = answered(new GatewayAnswer.Done(row(OperationStatus.SUCCEEDED, null), false, GatewayAnswer.Ending.SUCCEEDED));
        assertEquals("execute_tool invoice_create", span.getName());
        assertEquals("execute_tool", span.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name")));
        assertEquals("invoice_create", span.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.name")));
        assertEquals("7", span.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.call.id")));
        assertEquals("succeeded", span.getAttributes().get(OperationAttributes.STATUS));
        assertEquals("ref-1", span.getAttributes().get(OperationAttributes.TARGET_OBJECT_ID));
        assertNull(span.getAttributes().get(OperationAttributes.ERROR_TYPE));
        assertEquals(StatusCode.UNSET, span.getStatus().getStatusCode());
        assertNull(span.getAttributes().get(OperationAttributes.OUTCOME));
    }

    @Test
    void aCallIdThatIsNotPlainlyAnIdentifierStaysOffTheSpan() {
        try (var tool = ToolExecution.start(new ToolCall("invoice_create", "4111111111111111"),
                new OperationAttributes("acme", "k", "invoice.create", "1c"))) {
            tool.outcome("x");
        }
        assertNull(exported.finished().get(0).getAttributes().get(AttributeKey.stringKey("gen_ai.tool.call.id")));
    }

    @Test
    void aReplayIsSaidToBeOne() {
        SpanData span = answered(new GatewayAnswer.Done(row(OperationStatus.SUCCEEDED, null), true, GatewayAnswer.Ending.SUCCEEDED));
        assertEquals("replayed", span.getAttributes().get(OperationAttributes.OUTCOME));
    }

    @Test
    void anUnknownOrFailedOperationCarriesItsErrorCode() {
        SpanData unknown = answered(new GatewayAnswer.OutcomeUnknown(row(OperationStatus.UNKNOWN, "connection_lost"), Duration.ofSeconds(1), false, false));
        assertEquals("unknown", unknown.getAttributes().get(OperationAttributes.STATUS));
        assertEquals("connection_lost", unknown.getAttributes().get(OperationAttributes.ERROR_TYPE));
        assertEquals(StatusCode.ERROR, unknown.getStatus().getStatusCode());
        exported.reset();
        SpanData failed = answered(new GatewayAnswer.Done(row(OperationStatus.FAILED_FINAL, "http_400"), false, GatewayAnswer.Ending.REFUSED));
        assertEquals("http_400", failed.getAttributes().get(OperationAttributes.ERROR_TYPE));
    }

    @Test
    void workStillUnderWayIsNoError() {
        SpanData span = answered(new GatewayAnswer.InProgress(row(OperationStatus.STARTED, null), Duration.ofSeconds(30)));
        assertEquals("started", span.getAttributes().get(OperationAttributes.STATUS));
        assertEquals(StatusCode.UNSET, span.getStatus().getStatusCode());
    }

    @Test
    void aReusedKeyIsAnError() {
        SpanData span = answered(new GatewayAnswer.KeyReused(row(OperationStatus.SUCCEEDED, null)));
        assertEquals("idempotency_key_reused", span.getAttributes().get(OperationAttributes.ERROR_TYPE));
        assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode());
    }

    private SpanData answered(GatewayAnswer answer) {
        try (var tool = ToolExecution.start(new ToolCall("invoice_create", "7"),
                new OperationAttributes("acme", "k", "invoice.create", "1c"))) {
            ToolExecution.answered(tool, answer);
        }
        List<SpanData> spans = exported.finished();
        assertEquals(1, spans.size());
        return spans.get(0);
    }

    private static OperationView row(OperationStatus status, String errorCode) {
        return new OperationView("acme", "k", "agent-a", "invoice.create", "1c", status, "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT,
                List.of(), status == OperationStatus.SUCCEEDED ? "ref-1" : null, null, errorCode, 1, null, 1, null, 0, null,
                null, NOW, NOW, status.isTerminal() ? NOW : null, null, null, false, null);
    }
}
