package dev.toolgate.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.gateway.AgentAnswers;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.lifecycle.decisions.CaptureDecision;
import dev.toolgate.lifecycle.decisions.CapturePolicy;
import dev.toolgate.lifecycle.ApprovalWrites;
import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.lifecycle.decisions.OperationState;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.trace.Trace;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * {@link Approvals#decline} on real PostgreSQL, under the row lock it takes: a person's no ends an operation awaiting
 * approval for good with nothing sent, journals who said it and why, closes an approval not yet used, and is refused —
 * changing nothing — for another fingerprint, another tenant, or an operation no longer awaiting a decision.
 */
class ApprovalsDeclineIT {

    private static final String HASH = "c".repeat(64);
    private static final String AGENT = "agent-a";
    private static final Caller BOB = new Caller("bob", "acme", Set.of(Role.APPROVER));
    private static final Caller ERIN = new Caller("erin", "acme", Set.of(Role.APPROVER));

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();
    private static EntityManagerFactory unit;

    @BeforeAll
    static void migrate() throws Exception {
        unit = database.persistenceUnit();
    }

    @AfterAll
    static void stop() throws Exception {
        unit.close();
    }

    @Test
    void declinesAnOperationAwaitingApprovalForGoodWithNothingSent() throws SQLException {
        String key = pending("acme");
        OperationView declined = approvals(a -> a.decline(BOB, key, HASH, "the invoice was paid by card"));

        assertEquals(OperationStatus.FAILED_FINAL, declined.status());
        assertEquals(ApprovalStanding.DECLINED_CODE, declined.errorCode());
        assertNotNull(declined.completedAt());
        assertEquals(List.of("failed_final", "approval_declined", "0", "true"),
                columns(key, "status", "error_code", "attempt_count", "(completed_at IS NOT NULL)::text"), "no attempt was ever leased");
        assertNull(columns(key, "lease_until").get(0));
        assertEquals(List.of("captured|" + AGENT + "|pending_approval|awaiting approval; nothing sent",
                "declined|bob|failed_final|declined: the invoice was paid by card; nothing sent"), events(key));
    }

    @Test
    void declinesWithoutAReason() throws SQLException {
        String key = pending("acme");
        approvals(a -> a.decline(BOB, key, HASH, null));
        assertEquals("declined|bob|failed_final|declined; nothing sent", events(key).get(1));
    }

    @Test
    void journalsTheDecisionUnderTheTraceOfTheRequestThatMadeIt() throws SQLException {
        String key = pending("acme");
        String trace = "0af7651916cd43dd8448eb211c80319c";
        try (Trace ignored = Trace.open(trace, key)) {
            approvals(a -> a.decline(BOB, key, HASH, "no"));
        }
        assertEquals(trace, eventTrace(key, "declined"), "what the console's search by trace finds it by");
    }

    @Test
    void tellsTheAgentsNextCallThatTheApprovalLapsedAsDeclined() {
        String key = pending("acme");
        OperationView declined = approvals(a -> a.decline(BOB, key, HASH, "no"));
        Instant now = Instant.now();

        // the same key and payload again: the capture replays the finished row …
        OperationState row = new OperationState(declined.status(), declined.requestHash(), declined.leaseUntil(), declined.nextCheckAt(),
                declined.escalated(), ApprovalStanding.of(declined, null, now));
        assertInstanceOf(CaptureDecision.Replay.class, CapturePolicy.decide(row, HASH, now));
        // … and the answer says a person withheld consent, in the word the REST and MCP answers use
        GatewayAnswer.Done done = assertInstanceOf(GatewayAnswer.Done.class, AgentAnswers.of(declined, true, now));
        assertEquals(GatewayAnswer.Ending.APPROVAL_LAPSED, done.ending());
        assertEquals("declined", ApprovalStanding.lapseWord(done.operation().errorCode()));
    }

    @Test
    void refusesADeclineOfAnotherFingerprintAndChangesNothing() throws SQLException {
        String key = pending("acme");
        for (String fingerprint : new String[] {"d".repeat(64), null}) {
            OperationRefused refused = assertThrows(OperationRefused.class, () -> approvals(a -> a.decline(BOB, key, fingerprint, "no")));
            assertEquals(OperationRefused.Reason.FINGERPRINT_MISMATCH, refused.reason());
        }
        assertEquals(List.of("pending_approval"), columns(key, "status"));
        assertNull(columns(key, "error_code").get(0));
        assertEquals(1, events(key).size(), "only its capture");
    }

    @Test
    void refusesADeclineOfAnOperationNotAwaitingApproval() throws SQLException {
        String settled = pending("acme");
        exec("UPDATE agent_operation_log SET status = 'succeeded', target_object_id = 'pay-1', attempt_count = 1, completed_at = now()"
                + " WHERE operation_key = '" + settled + "'");
        OperationRefused refused = assertThrows(OperationRefused.class, () -> approvals(a -> a.decline(BOB, settled, HASH, "too late")));
        assertEquals(OperationRefused.Reason.NOT_AWAITING_APPROVAL, refused.reason());
        assertEquals(List.of("succeeded"), columns(settled, "status"));
        assertEquals(1, events(settled).size());
    }

    @Test
    void refusesToDeclineTwice() throws SQLException {
        String key = pending("acme");
        approvals(a -> a.decline(BOB, key, HASH, "no"));
        OperationRefused again = assertThrows(OperationRefused.class, () -> approvals(a -> a.decline(ERIN, key, HASH, "no, twice")));
        assertEquals(OperationRefused.Reason.NOT_AWAITING_APPROVAL, again.reason());
        assertEquals(2, events(key).size(), "the first decision stands alone");
    }

    @Test
    void refusesADeclineOfAnotherTenantsOperation() throws SQLException {
        String key = pending("globex");
        OperationRefused refused = assertThrows(OperationRefused.class, () -> approvals(a -> a.decline(BOB, key, HASH, "no")));
        assertEquals(OperationRefused.Reason.OPERATION_NOT_FOUND, refused.reason());
        assertEquals(List.of("pending_approval"), columns(key, "status"));
        assertEquals(OperationRefused.Reason.OPERATION_NOT_FOUND, assertThrows(OperationRefused.class,
                () -> approvals(a -> a.decline(BOB, "test:no-such-key", HASH, "no"))).reason());
    }

    @Test
    void revokesAnApprovalGrantedButNotYetUsed() throws SQLException {
        String key = pending("acme");
        ApprovalView granted = approvals(a -> a.grant(ERIN, key, HASH, Duration.ofHours(1), "checked"));
        assertEquals(ApprovalStanding.ACTIVE, granted.standing());

        OperationView declined = approvals(a -> a.decline(BOB, key, HASH, "changed my mind"));

        assertEquals(ApprovalStanding.DECLINED_CODE, declined.errorCode());
        ApprovalView after = approvals(a -> a.find(BOB, granted.id()));
        assertEquals(ApprovalStanding.REVOKED, after.standing());
        assertEquals("bob", after.revokedBy());
        assertEquals("declined", after.revokeReason());
        assertEquals(List.of("captured", "approved", "declined"), events(key).stream().map(e -> e.split("\\|")[0]).toList());
    }

    @Test
    void closesAnExpiredApprovalWithTheDecline() throws SQLException {
        String key = pending("acme");
        String approval = UUID.randomUUID().toString();
        exec("INSERT INTO operation_approval (approval_id, tenant, operation_key, request_hash, granted_by, granted_at, expires_at)"
                + " VALUES ('" + approval + "', 'acme', '" + key + "', '" + HASH + "', 'erin', now() - interval '2 hours', now() - interval '1 hour')");
        exec("UPDATE agent_operation_log SET approval_id = '" + approval + "' WHERE operation_key = '" + key + "'");

        approvals(a -> a.decline(BOB, key, HASH, "no"));

        assertEquals(List.of("bob", "declined"), approvalColumns(approval, "revoked_by", "revoke_reason"));
    }

    /** A call of the bean in a transaction of its own, as the container runs its REQUIRES_NEW methods. */
    private static <T> T approvals(Function<Approvals, T> call) {
        return JournalDatabase.inTransaction(unit, em -> {
            Approvals approvals = new Approvals();
            approvals.em = em;
            approvals.transitions = new ApprovalWrites();
            return call.apply(approvals);
        });
    }

    /** A payment refund of {@code tenant} awaiting approval, with its captured event, as KeyCapture leaves it. */
    private static String pending(String tenant) {
        String key = "test:payment.refund:" + UUID.randomUUID() + ":v1";
        try {
            exec("INSERT INTO agent_operation_log (tenant, operation_key, agent_id, operation_type, request_hash, payload, status,"
                    + " target_system, attempt_count, approval_required) VALUES ('" + tenant + "', '" + key + "', '" + AGENT
                    + "', 'payment.refund', '" + HASH + "', '{\"payment_id\": \"pay-1\", \"amount_minor\": 25000, \"currency\": \"RUB\"}',"
                    + " 'pending_approval', 'yookassa', 0, true)");
            exec("INSERT INTO operation_event (tenant, operation_key, kind, attempt, status, actor, detail) VALUES ('" + tenant + "', '"
                    + key + "', 'captured', 0, 'pending_approval', '" + AGENT + "', 'awaiting approval; nothing sent')");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return key;
    }

    private static List<String> columns(String key, String... columns) throws SQLException {
        return row("SELECT " + String.join(", ", columns) + " FROM agent_operation_log WHERE operation_key = ?", key, columns.length);
    }

    private static List<String> approvalColumns(String id, String... columns) throws SQLException {
        return row("SELECT " + String.join(", ", columns) + " FROM operation_approval WHERE approval_id = ?", id, columns.length);
    }

    private static List<String> row(String sql, String id, int width) throws SQLException {
        try (Connection c = database.connection(); PreparedStatement q = c.prepareStatement(sql)) {
            q.setString(1, id);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= width; i++) {
                    values.add(r.getString(i));
                }
                return values;
            }
        }
    }

    /** kind|actor|status|detail of each event, oldest first. */
    private static List<String> events(String key) throws SQLException {
        try (Connection c = database.connection();
             PreparedStatement q = c.prepareStatement("SELECT kind, actor, status, detail FROM operation_event WHERE operation_key = ? ORDER BY id")) {
            q.setString(1, key);
            List<String> events = new ArrayList<>();
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    events.add(r.getString(1) + "|" + r.getString(2) + "|" + r.getString(3) + "|" + r.getString(4));
                }
            }
            return events;
        }
    }

    private static String eventTrace(String key, String kind) throws SQLException {
        try (Connection c = database.connection();
             PreparedStatement q = c.prepareStatement("SELECT trace_id FROM operation_event WHERE operation_key = ? AND kind = ?")) {
            q.setString(1, key);
            q.setString(2, kind);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getString(1);
            }
        }
    }

    private static void exec(String sql) throws SQLException {
        try (Connection c = database.connection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.execute();
        }
    }
}
