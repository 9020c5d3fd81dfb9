package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

class ToolResultsTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private final ToolResults results = new ToolResults("http://gw/api", Duration.ofDays(30));

    private static OperationView row(OperationStatus status, String errorCode) {
        return new OperationView("acme", "t:invoice.create:o/1:v1", "agent-a", "invoice.create", "1c", status, "a".repeat(64),
                JsonValue.EMPTY_JSON_OBJECT, List.of(), status == OperationStatus.SUCCEEDED ? "ref-1" : null,
                status == OperationStatus.SUCCEEDED ? JSON.createObjectBuilder().add("number", "0001").build() : null,
                errorCode, 1, null, 1, null, 0, null, null, NOW, NOW, status.isTerminal() ? NOW : null, null, null, false, null);
    }

    private static JsonObject structured(JsonObject result) {
        return result.getJsonObject("structuredContent");
    }

    @Test
    void answersSuccessWithTheObjectItsResultAndNotReplayed() {
        JsonObject result = results.of(new GatewayAnswer.Done(row(OperationStatus.SUCCEEDED, null), false, GatewayAnswer.Ending.SUCCEEDED));
        assertFalse(result.getBoolean("isError"));
        assertEquals("succeeded", structured(result).getString("outcome"));
        assertEquals("ref-1", structured(result).getString("target_object_id"));
        assertEquals("0001", structured(result).getJsonObject("result").getString("number"));
        assertFalse(structured(result).getBoolean("replayed"));
    }

    @Test
    void linksTheOperationByThePathOfItsRecordWithoutSchemeOrHost() {
        JsonObject operation = structured(results.of(new GatewayAnswer.Done(row(OperationStatus.SUCCEEDED, null), false,
                GatewayAnswer.Ending.SUCCEEDED))).getJsonObject("operation");
        assertEquals("/api/v1/operations?key=t%3Ainvoice.create%3Ao%2F1%3Av1", operation.getJsonObject("links").getString("self"));
        JsonObject atRoot = structured(new ToolResults("https://gw:8443", Duration.ofDays(30)).of(new GatewayAnswer.Done(
                row(OperationStatus.SUCCEEDED, null), false, GatewayAnswer.Ending.SUCCEEDED))).getJsonObject("operation");
        assertEquals("/v1/operations?key=t%3Ainvoice.create%3Ao%2F1%3Av1", atRoot.getJsonObject("links").getString("self"));
    }

    @Test
    void marksAReplayedSuccess() {
        JsonObject result = results.of(new GatewayAnswer.Done(row(OperationStatus.SUCCEEDED, null), true, GatewayAnswer.Ending.SUCCEEDED));
        assertTrue(structured(result).getBoolean("replayed"));
        assertFalse(result.getBoolean("isError"));
    }

    @Test
    void answersAnUnknownOutcomeAsClarifyingWithTheSameKeyAfterSeconds() {
        JsonObject result = results.of(new GatewayAnswer.OutcomeUnknown(row(OperationStatus.UNKNOWN, null), Duration.ofMillis(2100), false, false));
        assertFalse(result.getBoolean("isError"));
        assertEquals("clarifying", structured(result).getString("outcome"));
        assertEquals(3, structured(result).getInt("retry_after_seconds"));
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        assertTrue(text.contains("same idempotency_key after 3 s") && text.contains("do not make a new key"), text);
    }

    @Test
    void saysAnUnknownOutcomeIsLookedUpAsSoonAsTheTargetAnnouncesIt() {
        JsonObject result = results.of(new GatewayAnswer.OutcomeUnknown(row(OperationStatus.UNKNOWN, null), Duration.ofSeconds(2), false, true));
        assertEquals(2, structured(result).getInt("retry_after_seconds"));
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        assertTrue(text.contains("as soon as the target announces it") && text.contains("after 2 s"), text);
        String without = results.of(new GatewayAnswer.OutcomeUnknown(row(OperationStatus.UNKNOWN, null), Duration.ofSeconds(2), false, false))
                .getJsonArray("content").getJsonObject(0).getString("text");
        assertFalse(without.contains("announces"), without);
    }

    @Test
    void answersAnOperationInFlightWithWhenToCallAgain() {
        JsonObject result = results.of(new GatewayAnswer.InProgress(row(OperationStatus.STARTED, null), Duration.ofSeconds(30)));
        assertEquals("in_progress", structured(result).getString("outcome"));
        assertEquals(30, structured(result).getInt("retry_after_seconds"));
    }

    @Test
    void answersApprovalRequiredWithWhoApprovesAndTheLink() {
        JsonObject result = results.of(new GatewayAnswer.AwaitingApproval(row(OperationStatus.PENDING_APPROVAL, null)));
        assertFalse(result.getBoolean("isError"));
        JsonObject approval = structured(result).getJsonObject("approval");
        assertEquals("approver", approval.getString("who"));
        assertEquals("http://gw/api/v1/operations?key=t%3Ainvoice.create%3Ao%2F1%3Av1", approval.getString("link"));
        assertEquals("a".repeat(64), approval.getString("request_hash"));
    }

    @Test
    void answersAReusedKeyAsAnErrorWithItsProblemType() {
        JsonObject result = results.of(new GatewayAnswer.KeyReused(row(OperationStatus.SUCCEEDED, null)));
        assertTrue(result.getBoolean("isError"));
        assertEquals(ProblemType.IDEMPOTENCY_KEY_REUSED.uri(), structured(result).getJsonObject("problem").getString("type"));
    }

    @Test
    void answersEachFailedEndingAsAnErrorWithTheRestProblemType() {
        assertEquals(ProblemType.TARGET_REJECTED.uri(), failed("rejected", GatewayAnswer.Ending.REFUSED));
        assertEquals(ProblemType.RETRIES_EXHAUSTED.uri(), failed("retries_exhausted", GatewayAnswer.Ending.RETRIES_EXHAUSTED));
        assertEquals(ProblemType.APPROVAL_LAPSED.uri(), failed("approval_revoked", GatewayAnswer.Ending.APPROVAL_LAPSED));
    }

    private String failed(String code, GatewayAnswer.Ending ending) {
        JsonObject result = results.of(new GatewayAnswer.Done(row(OperationStatus.FAILED_FINAL, code), false, ending));
        assertTrue(result.getBoolean("isError"));
        assertEquals("failed", structured(result).getString("outcome"));
        return structured(result).getJsonObject("problem").getString("type");
    }

    @Test
    void answersTryLaterWithoutAnError() {
        JsonObject result = results.of(new GatewayAnswer.TryLater(row(OperationStatus.FAILED_RETRYABLE, null), Duration.ofSeconds(4)));
        assertFalse(result.getBoolean("isError"));
        assertEquals("try_later", structured(result).getString("outcome"));
    }

    @Test
    void carriesTheStructuredContentAsTextForClientsThatIgnoreIt() {
        JsonObject result = results.problem(ProblemType.INVALID_PAYLOAD, "amount_minor: must be positive", "k");
        assertEquals(structured(result).toString(), result.getJsonArray("content").getJsonObject(1).getString("text"));
        assertEquals("refused", structured(result).getString("outcome"));
    }

    @Test
    void usesOnlyOutcomesTheOutputSchemaLists() {
        assertTrue(ToolResults.OUTCOMES.containsAll(List.of("succeeded", "failed", "clarifying", "in_progress", "try_later",
                "approval_required", "refused", "record", "open_operations")));
    }
}
