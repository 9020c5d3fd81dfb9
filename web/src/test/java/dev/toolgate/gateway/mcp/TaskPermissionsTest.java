package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.json.JsonValue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/** Who may read a task and who may withdraw one that waits for a person ({@link Tasks#mayRead}, {@link Tasks#mayCancel}). */
class TaskPermissionsTest {

    private static final Instant CREATED = Instant.parse("2026-12-01T10:00:00Z");
    /** An operation agent-a submitted, waiting for a person. */
    private static final OperationView WAITING = new OperationView("acme", "t:payment.create:o-1:v1", "agent-a", "payment.create",
            "yookassa", OperationStatus.PENDING_APPROVAL, "b".repeat(64), JsonValue.EMPTY_JSON_OBJECT, List.of(), null, null, null, 0,
            null, 0, null, 0, null, null, CREATED, CREATED, null, null, null, true, null);

    @ParameterizedTest(name = "{0} as {1}: reads {2}, withdraws {3}")
    @CsvSource({
            "agent-a,  AGENT,    true,  true",   // the agent that submitted it
            "agent-b,  AGENT,    true,  false",  // another agent of the tenant: reads, may not end someone else's key
            "ops,      OPERATOR, true,  false",  // an operator resumes, but declining is a person's decision
            "anna,     APPROVER, true,  true",   // an approver declines, as through REST
            "audit,    AUDITOR,  true,  false",
            "root,     ADMIN,    false, false",  // an admin manages principals: no task is shown to it
    })
    void readsAndWithdrawsAsTheirRolesAllow(String principal, Role role, boolean reads, boolean withdraws) {
        Caller caller = new Caller(principal, "acme", Set.of(role));
        assertEquals(reads, Tasks.mayRead(caller));
        assertEquals(withdraws, Tasks.mayCancel(caller, WAITING));
    }

    @ParameterizedTest(name = "agent-a holding {0} withdraws: {1}")
    @CsvSource({"AGENT, true", "AUDITOR, false"})
    void anAgentsOwnOperationIsItsToWithdrawOnlyWhileItActsAsAnAgent(Role role, boolean withdraws) {
        assertEquals(withdraws, Tasks.mayCancel(new Caller("agent-a", "acme", Set.of(role)), WAITING));
    }
}
