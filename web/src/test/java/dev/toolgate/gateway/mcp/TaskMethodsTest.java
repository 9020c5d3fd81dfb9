package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.search.OperationRecords;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The tasks methods' answers to keys no door takes, to refusals, and to a principal that may not read a task. */
class TaskMethodsTest {

    private static final Caller AGENT = new Caller("agent-a", "acme", Set.of(Role.AGENT));
    private static final Caller ADMIN = new Caller("root", "acme", Set.of(Role.ADMIN));
    private static final String KEY = "t:payment.create:o-1:v1";
    private static final Instant CREATED = Instant.parse("2026-12-01T10:00:00Z");
    private static final OperationView WAITING = new OperationView("acme", KEY, "agent-a", "payment.create",
            "yookassa", OperationStatus.PENDING_APPROVAL, "b".repeat(64), JsonValue.EMPTY_JSON_OBJECT, List.of(), null, null, null, 0,
            null, 0, null, 0, null, null, CREATED, CREATED, null, null, null, true, null);
    private static final Declared TASKS = new Declared(true, false);

    /** No journal behind it: a task id that reached one would fail with a NullPointerException, not an answer. */
    private static TaskMethods unbacked() {
        return new TaskMethods();
    }

    /** A journal holding {@link #WAITING}, and a gateway whose resume fails with {@code failure}. */
    private static TaskMethods holdingWaiting(RuntimeException failure) {
        TaskMethods methods = new TaskMethods();
        methods.operations = new Tasks();
        methods.operations.records = new OperationRecords() {
            @Override
            public Optional<OperationRecord> find(String tenant, String key) {
                return KEY.equals(key) ? Optional.of(new OperationRecord(WAITING, List.of(), null)) : Optional.empty();
            }
        };
        methods.operations.gateway = new CommandGateway() {
            @Override
            public GatewayAnswer resume(ToolCall call, Caller caller, String key) {
                throw failure;
            }
        };
        return methods;
    }

    private static JsonObject answer(TaskMethods methods, Caller caller, String method, String taskId) {
        JsonObject params = JSON.createObjectBuilder().add("taskId", taskId).add("inputResponses", JSON.createObjectBuilder()
                .add(TaskJson.approvalInputKey(WAITING.requestHash()), JSON.createObjectBuilder().add("action", "accept"))).build();
        return methods.answer(caller, new JsonRpc.Call(JSON.createValue(7), method, params), TASKS, "http://gw/api");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tasks/get", "tasks/update", "tasks/cancel"})
    void refusesATaskIdWhoseKeyNoDoorTakesBeforeTheJournal(String method) {
        for (String taskId : List.of("operation:k\u0000", "operation:k\u0007x", "process:k\u0000", "operation:", "operation:a b",
                "operation:" + "k".repeat(256), "operation:t:pay:4111111111111111:v1")) {
            JsonObject answer = answer(unbacked(), AGENT, method, taskId);
            assertEquals(JsonRpc.INVALID_PARAMS, JsonRpc.errorCode(answer), method + " " + taskId.length() + ": " + answer);
            assertFalse(answer.toString().contains("4111"), answer.toString());
        }
    }

    @Test
    void answersAResumeThatNeedsItsCallerWithItsProblemNotAnInternalError() {
        JsonObject answer = answer(holdingWaiting(new OperationRefused(OperationRefused.Reason.RESUME_NEEDS_CALLER, "send the original request")),
                AGENT, "tasks/update", "operation:" + KEY);
        assertEquals(JsonRpc.INVALID_PARAMS, JsonRpc.errorCode(answer), answer.toString());
        assertEquals("https://toolgate.dev/problems/resume-needs-caller", answer.getJsonObject("error").getJsonObject("data").getString("type"));
    }

    @Test
    void answersAJournalOutageAsAServerErrorToRetryNotAnIncident() {
        RuntimeException outage = new RuntimeException(new SQLException("connection refused", "08001"));
        JsonObject answer = answer(holdingWaiting(outage), AGENT, "tasks/update", "operation:" + KEY);
        assertEquals(JsonRpc.SERVER_UNAVAILABLE, JsonRpc.errorCode(answer), answer.toString());
        assertEquals("https://toolgate.dev/problems/journal-unavailable", answer.getJsonObject("error").getJsonObject("data").getString("type"));
        assertFalse(answer.toString().contains("incident"), answer.toString());
    }

    @Test
    void answersAnUpdateFromAPrincipalThatMayNotReadATaskAsForAnUnknownOne() {
        TaskMethods methods = holdingWaiting(new IllegalStateException("an admin must not move a task on"));
        JsonObject existing = answer(methods, ADMIN, "tasks/update", "operation:" + KEY);
        JsonObject unknown = answer(methods, ADMIN, "tasks/update", "operation:t:payment.create:o-2:v1");
        assertEquals(unknown.toString(), existing.toString());
        assertEquals(JsonRpc.INVALID_PARAMS, JsonRpc.errorCode(existing));
    }
}
