package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.approval.Approvals;
import dev.toolgate.escalation.Escalations;
import dev.toolgate.gateway.edge.ServletFakes;
import dev.toolgate.operation.OperationView;
import dev.toolgate.trace.Trace;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A person's decision in the console — approve, decline, revoke, resolve — is journaled in a trace, as one made
 * through the API is in the call's: the services write {@code Trace.traceId()} on the events they append
 * ({@code journal.EventLog}), so what they see while deciding is what the journal keeps.
 */
class ConsoleDecisionTracesTest {

    private static final String KEY = "test:payment.refund:claim-77:v1";
    private final List<String> journaledIn = new ArrayList<>();
    private final ConsoleServlet console = new ConsoleServlet();

    ConsoleDecisionTracesTest() {
        console.approvals = new ApprovalDesk();
        console.operations = new OperationDesk();
        console.reconcile = new ReconcileDesk();
        console.signOut = new SignOut();
        console.approvals.approvals = new Approvals() {
            @Override
            public ApprovalView grant(Caller approver, String key, String fingerprint, Duration validFor, String note) {
                journaledIn.add(Trace.traceId());
                return new ApprovalView("a1", approver.tenant(), key, fingerprint, approver.principalId(), Instant.now(),
                        Instant.now().plus(validFor), note, null, null, null, null);
            }

            @Override
            public OperationView decline(Caller approver, String key, String fingerprint, String reason) {
                journaledIn.add(Trace.traceId());
                return null;
            }

            @Override
            public ApprovalView revoke(Caller approver, String approvalId, String reason) {
                journaledIn.add(Trace.traceId());
                return null;
            }
        };
        console.operations.escalations = new Escalations() {
            @Override
            public OperationView resolveSucceeded(Caller operator, String key, String objectId, String evidence) {
                journaledIn.add(Trace.traceId());
                return null;
            }
        };
        console.init();
    }

    @Test
    void everyDecisionIsJournaledInATraceOfItsOwnAndTheThreadIsLeftClean() throws Exception {
        assertEquals(303, post("/approvals/approve", Map.of("key", KEY, "validity", "1 hour", "fingerprint", "f".repeat(64))));
        assertEquals(303, post("/approvals/decline", Map.of("key", KEY, "fingerprint", "f".repeat(64), "reason", "no")));
        assertEquals(303, post("/approvals/revoke", Map.of("key", KEY, "approval", "a1", "reason", "changed")));
        assertEquals(303, post("/operation/resolve", Map.of("key", KEY, "outcome", "succeeded", "object_id", "obj-1",
                "evidence", "checked at the bank")));
        assertEquals(4, journaledIn.size(), journaledIn.toString());
        for (String trace : journaledIn) {
            assertTrue(trace != null && trace.matches("[0-9a-f]{32}"), "journaled with a trace id: " + journaledIn);
        }
        assertEquals(4, Set.copyOf(journaledIn).size(), "each request its own trace");
        assertNull(Trace.traceId(), "a pooled thread keeps no person's trace for the next request");
    }

    /** A POST from a signed-in person who may do everything, past the guard (its CSRF check is ConsoleGuard's): the status answered. */
    private int post(String path, Map<String, String> form) throws Exception {
        Map<String, Object> session = new HashMap<>();
        HttpSession httpSession = ServletFakes.proxy(HttpSession.class, (name, args) -> switch (name) {
            case "getAttribute" -> session.get((String) args[0]);
            case "setAttribute" -> session.put((String) args[0], args[1]);
            case "removeAttribute" -> session.remove((String) args[0]);
            default -> null;
        });
        ConsoleUser person = new ConsoleUser("oscar", "acme", Set.of(Role.APPROVER, Role.OPERATOR), Instant.now());
        HttpServletRequest request = ServletFakes.proxy(HttpServletRequest.class, (name, args) -> switch (name) {
            case "getMethod" -> "POST";
            case "getPathInfo" -> path;
            case "getParameter" -> form.get((String) args[0]);
            case "getAttribute" -> ConsoleGuard.USER.equals(args[0]) ? person : null;
            case "getSession" -> httpSession;
            case "getContextPath" -> "";
            case "getProtocol" -> "HTTP/1.1";
            default -> null;
        });
        int[] status = {0};
        HttpServletResponse response = ServletFakes.proxy(HttpServletResponse.class, (name, args) -> {
            if (name.equals("setStatus") || name.equals("sendError")) {
                status[0] = (Integer) args[0];
            }
            return null;
        });
        console.service((jakarta.servlet.ServletRequest) request, response);
        return status[0];
    }
}
