package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.process.ProcessStatus;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

class TaskStatusesTest {

    private static final Instant CREATED = Instant.parse("2026-12-01T10:00:00Z");

    private static OperationView row(OperationStatus status, String errorCode) {
        return new OperationView("acme", "t:payment.create:o-1:v1", "agent-a", "payment.create", "yookassa", status, "b".repeat(64),
                JsonValue.EMPTY_JSON_OBJECT, List.of(), null, null, errorCode, 1, null, 1, null, 0, null, null, CREATED, CREATED,
                status.isTerminal() ? CREATED.plusSeconds(60) : null, null, null, true, null);
    }

    @Test
    void showsAnOutcomeBeingClarifiedAsWorkingAndSaysSo() {
        TaskStatuses.State state = TaskStatuses.of(new GatewayAnswer.OutcomeUnknown(row(OperationStatus.UNKNOWN, null), Duration.ofSeconds(3), false, false));
        assertEquals("working", state.status());
        assertTrue(state.message().contains("clarified") && state.message().contains("reconciling"), state.message());
        assertEquals(Duration.ofSeconds(3), state.poll());
    }

    @Test
    void showsAnEscalatedOutcomeAsWorkingForAPerson() {
        TaskStatuses.State state = TaskStatuses.of(new GatewayAnswer.OutcomeUnknown(row(OperationStatus.UNKNOWN, null), Duration.ofMinutes(5), true, false));
        assertEquals("working", state.status());
        assertTrue(state.message().startsWith("escalated"), state.message());
    }

    @Test
    void showsAnAttemptInFlightAsWorkingPolledNoFasterThanASecond() {
        TaskStatuses.State state = TaskStatuses.of(new GatewayAnswer.InProgress(row(OperationStatus.STARTED, null), Duration.ZERO));
        assertEquals("working", state.status());
        assertEquals(TaskStatuses.MIN_POLL, state.poll());
    }

    @Test
    void showsAnApprovalAsInputRequired() {
        TaskStatuses.State state = TaskStatuses.of(new GatewayAnswer.AwaitingApproval(row(OperationStatus.PENDING_APPROVAL, null)));
        assertEquals("input_required", state.status());
        assertEquals(TaskStatuses.APPROVAL_POLL, state.poll());
    }

    @Test
    void showsASettledOperationAsCompletedWhetherItSucceededOrFailed() {
        assertEquals("completed", TaskStatuses.of(new GatewayAnswer.Done(row(OperationStatus.SUCCEEDED, null), true,
                GatewayAnswer.Ending.SUCCEEDED)).status());
        TaskStatuses.State refused = TaskStatuses.of(new GatewayAnswer.Done(row(OperationStatus.FAILED_FINAL, "target_rejected"), true,
                GatewayAnswer.Ending.REFUSED));
        assertEquals("completed", refused.status(), "failed is for JSON-RPC errors; a refusal is a tool result with isError");
        assertNull(refused.poll());
    }

    @Test
    void showsADeclinedOperationAsCancelled() {
        assertEquals("cancelled", TaskStatuses.of(new GatewayAnswer.Done(row(OperationStatus.FAILED_FINAL, ApprovalStanding.DECLINED_CODE), true,
                GatewayAnswer.Ending.APPROVAL_LAPSED)).status());
    }

    @Test
    void showsAnOperationWaitingForItsCallersRetryAsWorkingAndTellsWhoActs() {
        TaskStatuses.State state = TaskStatuses.of(new GatewayAnswer.TryLater(row(OperationStatus.FAILED_RETRYABLE, null), Duration.ofSeconds(10)));
        assertEquals("working", state.status());
        assertTrue(state.message().contains("same idempotency_key"), state.message());
    }

    @Test
    void makesTasksOnlyOfAnswersThatMoveOnWithoutTheCall() {
        assertTrue(TaskStatuses.unsettled(new GatewayAnswer.OutcomeUnknown(row(OperationStatus.UNKNOWN, null), Duration.ofSeconds(1), false, false)));
        assertTrue(TaskStatuses.unsettled(new GatewayAnswer.InProgress(row(OperationStatus.STARTED, null), Duration.ofSeconds(1))));
        assertTrue(TaskStatuses.unsettled(new GatewayAnswer.AwaitingApproval(row(OperationStatus.PENDING_APPROVAL, null))));
        assertFalse(TaskStatuses.unsettled(new GatewayAnswer.TryLater(row(OperationStatus.FAILED_RETRYABLE, null), Duration.ofSeconds(1))),
                "nothing moves it on but the caller's retry: today's answer says so");
        assertFalse(TaskStatuses.unsettled(new GatewayAnswer.Done(row(OperationStatus.SUCCEEDED, null), false, GatewayAnswer.Ending.SUCCEEDED)));
        assertFalse(TaskStatuses.unsettled(new GatewayAnswer.KeyReused(row(OperationStatus.SUCCEEDED, null))));
    }

    @Test
    void mapsEveryProcessStatus() {
        assertEquals("working", TaskStatuses.of(ProcessStatus.RUNNING, "d", Duration.ofSeconds(2)).status());
        assertEquals("working", TaskStatuses.of(ProcessStatus.COMPENSATING, "d", null).status());
        assertEquals("working", TaskStatuses.of(ProcessStatus.NEEDS_ATTENTION, "d", null).status());
        assertEquals("input_required", TaskStatuses.of(ProcessStatus.AWAITING_APPROVAL, "d", null).status());
        for (ProcessStatus settled : List.of(ProcessStatus.COMPLETED, ProcessStatus.FAILED, ProcessStatus.COMPENSATED)) {
            assertEquals("completed", TaskStatuses.of(settled, "d", null).status(), settled.name());
        }
    }

    @Test
    void publishesTtlFromCreationToTheEndOfRetentionAndNoneWhileUnfinished() {
        TaskStatuses.State state = new TaskStatuses.State("working", "m", Duration.ofSeconds(2));
        JsonObject open = TaskJson.task("operation:k", state, CREATED, CREATED, null, Duration.ofDays(30)).build();
        assertEquals(JsonValue.NULL, open.get("ttlMs"), "the journal keeps an unfinished operation for as long as it takes");
        assertEquals(2000, open.getInt("pollIntervalMs"));
        JsonObject done = TaskJson.task("operation:k", new TaskStatuses.State("completed", "m", null), CREATED, CREATED,
                CREATED.plusSeconds(60), Duration.ofDays(30)).build();
        assertEquals(Duration.ofDays(30).plusSeconds(60).toMillis(), done.getJsonNumber("ttlMs").longValue());
        assertFalse(done.containsKey("pollIntervalMs"));
        assertEquals("task", TaskJson.created(TaskJson.task("operation:k", state, CREATED, CREATED, null, Duration.ofDays(1))).getString("resultType"));
    }

    @Test
    void pointsTheApprovalRequestAtTheConsolePageOfThatOperation() {
        JsonObject requests = TaskJson.approvalRequest("http://gw", "t:payment.create:o/1:v1", "c".repeat(64));
        JsonObject request = requests.getJsonObject("approval-" + "c".repeat(16));
        assertEquals("elicitation/create", request.getString("method"));
        assertEquals("url", request.getJsonObject("params").getString("mode"));
        assertEquals("http://gw/console/approval?key=t%3Apayment.create%3Ao%2F1%3Av1", request.getJsonObject("params").getString("url"));
    }

    @Test
    void readsWhatTheClientDeclaredOnThisRequestOnly() {
        JsonObject capabilities = JSON.createObjectBuilder().add("extensions", JSON.createObjectBuilder().add("io.modelcontextprotocol/tasks",
                JsonValue.EMPTY_JSON_OBJECT)).add("elicitation", JSON.createObjectBuilder().add("url", JsonValue.EMPTY_JSON_OBJECT)).build();
        assertEquals(new Declared(true, true), Declared.of(new ProtocolVersions.Modern("2026-07-28", capabilities)));
        assertEquals(new Declared(false, false), Declared.of(new ProtocolVersions.Modern("2026-07-28", JsonValue.EMPTY_JSON_OBJECT)));
        assertEquals(Declared.NOTHING, Declared.of(new ProtocolVersions.Legacy()), "a legacy client gets today's answers");
    }
}
