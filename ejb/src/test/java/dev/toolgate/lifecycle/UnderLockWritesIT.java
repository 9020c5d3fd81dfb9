package dev.toolgate.lifecycle;

import static dev.toolgate.canonical.Jsons.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.operation.EventKind;
import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The writes made under the row lock that a phase or a person took — an approval's lapse and grant
 * ({@link ApprovalWrites}), a person's resolution ({@link Resolutions}), a holder's renewal ({@link Leases#RENEW})
 * — on real PostgreSQL: each writes its row and its event in one statement, and a row that is no longer as its
 * writer read it (another status, another lease, another approval, escalated or not) gets neither, and the
 * statement says so by returning no row.
 */
class UnderLockWritesIT {

    private static final String HASH = "c".repeat(64);
    private static final String GRANTED = UUID.randomUUID().toString();
    /** The events' log lines wait for a container transaction's commit; here there is none (JournalDatabase says more). */
    private static final Logger OPERATIONS_LOG = Logger.getLogger("dev.toolgate.operations");

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();

    @BeforeAll
    static void quietTheEventsLogLines() {
        OPERATIONS_LOG.setLevel(Level.OFF);
    }

    @Test
    void anApprovalThatLapsedEndsTheRowAsItWasReadWithItsEventInOneStatement() throws SQLException {
        try (Connection c = database.connection()) {
            String key = row(c, "pending_approval", 0, 1, GRANTED, false);
            OperationView before = read(c, key);
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

            Optional<OperationView> lapsed = ApprovalWrites.lapse(c, before, "approval_expired", EventKind.APPROVAL_LAPSED, "agent-a", now,
                    "the approval was expired before attempt 1; nothing sent");

            assertEquals(Optional.of(OperationStatus.FAILED_FINAL), lapsed.map(OperationView::status), "the lapsed row comes back");
            assertEquals(Arrays.asList("failed_final", "approval_expired", null, null, now.toString()),
                    columns(c, key, "status", "error_code", "lease_until", "next_check_at", "completed_at"));
            assertEquals(now, read(c, key).updatedAt());
            assertEquals(List.of("approval_lapsed 0 failed_final agent-a: the approval was expired before attempt 1; nothing sent"),
                    events(c, key));
        }
    }

    @Test
    void theEffectGatesLapseEndsTheStartedAttemptItHolds() throws SQLException {
        try (Connection c = database.connection()) {
            String key = row(c, "started", 1, 2, GRANTED, false);

            Optional<OperationView> lapsed = ApprovalWrites.lapse(c, read(c, key), "approval_revoked", EventKind.APPROVAL_LAPSED,
                    "agent-a", Instant.now(), "nothing sent");

            assertEquals(Optional.of(OperationStatus.FAILED_FINAL), lapsed.map(OperationView::status));
            assertEquals(Arrays.asList("failed_final", null), columns(c, key, "status", "lease_until"), "the attempt's lease is given back");
            assertEquals(List.of("approval_lapsed 1 failed_final agent-a: nothing sent"), events(c, key));
        }
    }

    @Test
    void aDeclineIsTheLapsesStatementJournaledAsDeclined() throws SQLException {
        try (Connection c = database.connection()) {
            String key = row(c, "pending_approval", 0, 1, null, false);

            ApprovalWrites.lapse(c, read(c, key), "approval_declined", EventKind.DECLINED, "bob", Instant.now(), "declined; nothing sent");

            assertEquals(List.of("failed_final", "approval_declined"), columns(c, key, "status", "error_code"));
            assertEquals(List.of("declined 0 failed_final bob: declined; nothing sent"), events(c, key));
        }
    }

    @Test
    void aLapseOfARowThatMovedOnSinceItWasReadWritesNothing() throws SQLException {
        try (Connection c = database.connection()) {
            for (String movedOn : new String[] {"lease_epoch = 2", "approval_id = '" + UUID.randomUUID() + "'", "status = 'started'",
                    "attempt_count = 1"}) {
                String key = row(c, "pending_approval", 0, 1, GRANTED, false);
                OperationView before = read(c, key);
                exec(c, "UPDATE agent_operation_log SET " + movedOn + " WHERE operation_key = '" + key + "'");
                String after = columns(c, key, "status", "updated_at").toString();

                Optional<OperationView> lapsed = ApprovalWrites.lapse(c, before, "approval_expired", EventKind.APPROVAL_LAPSED, "agent-a",
                        Instant.now(), "nothing sent");

                assertEquals(Optional.empty(), lapsed, movedOn);
                assertEquals(after, columns(c, key, "status", "updated_at").toString(), movedOn);
                assertEquals(List.of(), events(c, key), movedOn);
            }
        }
    }

    @Test
    void noLapseTouchesAnEscalatedOrSettledRowEvenAsRead() throws SQLException {
        try (Connection c = database.connection()) {
            String escalated = row(c, "unknown", 1, 2, GRANTED, true);
            String succeeded = row(c, "succeeded", 1, 2, GRANTED, false);

            for (String key : List.of(escalated, succeeded)) {
                Optional<OperationView> lapsed = ApprovalWrites.lapse(c, read(c, key), "approval_revoked", EventKind.APPROVAL_LAPSED,
                        "bob", Instant.now(), "nothing sent");

                assertEquals(Optional.empty(), lapsed);
                assertEquals(List.of(), events(c, key));
            }
            assertEquals(Arrays.asList("unknown", null), columns(c, escalated, "status", "error_code"));
            assertEquals(List.of("succeeded"), columns(c, succeeded, "status"));
        }
    }

    @Test
    void aGrantNamesItselfOnTheRowAwaitingApprovalWithItsEvent() throws SQLException {
        try (Connection c = database.connection()) {
            String key = row(c, "pending_approval", 0, 1, null, false);
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

            Optional<OperationView> approved = ApprovalWrites.approve(c, read(c, key), GRANTED, "bob", now, "approval " + GRANTED);

            assertEquals(Optional.of(GRANTED), approved.map(OperationView::approvalId));
            assertEquals(List.of("pending_approval", GRANTED), columns(c, key, "status", "approval_id"));
            assertEquals(now, read(c, key).updatedAt());
            assertEquals(List.of("approved 0 pending_approval bob: approval " + GRANTED), events(c, key));
        }
    }

    @Test
    void aGrantForARowNoLongerAsReadWritesNothing() throws SQLException {
        try (Connection c = database.connection()) {
            for (String movedOn : new String[] {"status = 'failed_final', error_code = 'approval_declined', completed_at = now()",
                    "approval_id = '" + UUID.randomUUID() + "'"}) {
                String key = row(c, "pending_approval", 0, 1, null, false);
                OperationView before = read(c, key);
                exec(c, "UPDATE agent_operation_log SET " + movedOn + " WHERE operation_key = '" + key + "'");
                String after = columns(c, key, "status", "approval_id").toString();

                Optional<OperationView> approved = ApprovalWrites.approve(c, before, GRANTED, "bob", Instant.now(), "approval");

                assertEquals(Optional.empty(), approved, movedOn);
                assertEquals(after, columns(c, key, "status", "approval_id").toString(), movedOn);
                assertEquals(List.of(), events(c, key), movedOn);
            }
        }
    }

    @Test
    void aResolutionSettlesTheEscalatedRowWithItsResultAndEventInOneStatement() throws SQLException {
        try (Connection c = database.connection()) {
            String key = row(c, "unknown", 1, 2, null, true);
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

            Optional<OperationView> resolved = Resolutions.resolve(c, read(c, key), OperationStatus.SUCCEEDED, "doc-7", null,
                    JSON.createObjectBuilder().add("resolved_by", "olga").add("evidence", "seen in 1C").build(), "olga", now,
                    "target object doc-7 on evidence: seen in 1C");

            assertEquals(Optional.of("doc-7"), resolved.map(OperationView::targetObjectId));
            assertEquals(Arrays.asList("succeeded", "doc-7", null, null, now.toString()),
                    columns(c, key, "status", "target_object_id", "error_code", "lease_until", "completed_at"));
            assertEquals("seen in 1C", read(c, key).result().getString("evidence"), "the result replays the person's word");
            assertEquals(List.of("resolved 1 succeeded olga: target object doc-7 on evidence: seen in 1C"), events(c, key));
        }
    }

    @Test
    void aResolutionFailsTheEscalatedRowForGoodWithItsCode() throws SQLException {
        try (Connection c = database.connection()) {
            String key = row(c, "unknown", 1, 2, null, true);

            Resolutions.resolve(c, read(c, key), OperationStatus.FAILED_FINAL, null, "resolved_failed",
                    JSON.createObjectBuilder().add("detail", "never arrived").build(), "olga", Instant.now(), "resolved_failed on evidence: x");

            assertEquals(Arrays.asList("failed_final", null, "resolved_failed"), columns(c, key, "status", "target_object_id", "error_code"));
            assertEquals(List.of("resolved 1 failed_final olga: resolved_failed on evidence: x"), events(c, key));
        }
    }

    @Test
    void aResolutionOfARowThatIsNotEscalatedOrMovedOnWritesNothing() throws SQLException {
        try (Connection c = database.connection()) {
            String notEscalated = row(c, "unknown", 1, 2, null, false);
            String movedOn = row(c, "unknown", 1, 2, null, true);
            OperationView movedOnBefore = read(c, movedOn);
            exec(c, "UPDATE agent_operation_log SET lease_epoch = 3 WHERE operation_key = '" + movedOn + "'");

            for (OperationView before : List.of(read(c, notEscalated), movedOnBefore)) {
                Optional<OperationView> resolved = Resolutions.resolve(c, before, OperationStatus.SUCCEEDED, "doc-7", null,
                        JSON.createObjectBuilder().build(), "olga", Instant.now(), "target object doc-7");

                assertEquals(Optional.empty(), resolved, before.key());
                assertEquals(Arrays.asList("unknown", null), columns(c, before.key(), "status", "response_json"));
                assertEquals(List.of(), events(c, before.key()));
            }
        }
    }

    @Test
    void aRenewalKeepsTheHoldersEpochAndMovesOnlyItsLeaseWithoutAnEvent() throws SQLException {
        try (Connection c = database.connection()) {
            String started = row(c, "started", 1, 2, null, false);
            String lookedUp = row(c, "unknown", 1, 3, null, false);
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

            Optional<OperationView> attempt = Leases.renew(c, read(c, started), OperationStatus.STARTED, now, Duration.ofSeconds(30));
            Optional<OperationView> lookUp = Leases.renew(c, read(c, lookedUp), OperationStatus.UNKNOWN, now, Duration.ofSeconds(30));

            assertEquals(Optional.of(now.plusSeconds(30)), attempt.map(OperationView::leaseUntil));
            assertEquals(Optional.of(now.plusSeconds(30)), lookUp.map(OperationView::leaseUntil));
            assertEquals(List.of("started", "1", "2"), columns(c, started, "status", "attempt_count", "lease_epoch"));
            assertEquals(List.of("unknown", "1", "3"), columns(c, lookedUp, "status", "attempt_count", "lease_epoch"));
            assertEquals(now.plusSeconds(30), read(c, started).leaseUntil());
            assertEquals(List.of(), events(c, started));
            assertEquals(List.of(), events(c, lookedUp));
        }
    }

    @Test
    void aRenewalOfALeaseTheHolderNoLongerHoldsWritesNothing() throws SQLException {
        try (Connection c = database.connection()) {
            String takenOver = row(c, "started", 1, 2, null, false);
            OperationView held = read(c, takenOver);
            exec(c, "UPDATE agent_operation_log SET status = 'unknown', lease_epoch = 3 WHERE operation_key = '" + takenOver + "'");
            String escalated = row(c, "unknown", 1, 2, null, true);
            String settled = row(c, "succeeded", 1, 2, null, false);

            assertEquals(Optional.empty(), Leases.renew(c, held, OperationStatus.STARTED, Instant.now(), Duration.ofSeconds(30)));
            assertEquals(Optional.empty(), Leases.renew(c, held, OperationStatus.UNKNOWN, Instant.now(), Duration.ofSeconds(30)),
                    "the look-up's epoch is not the attempt's");
            assertEquals(Optional.empty(), Leases.renew(c, read(c, escalated), OperationStatus.UNKNOWN, Instant.now(), Duration.ofSeconds(30)),
                    "only a person changes an escalated row");
            assertEquals(Optional.empty(), Leases.renew(c, read(c, settled), OperationStatus.SUCCEEDED, Instant.now(), Duration.ofSeconds(30)),
                    "a settled row has no lease to renew");
            for (String key : List.of(takenOver, escalated, settled)) {
                OperationView now = read(c, key);
                assertTrue(now.leaseUntil() == null || now.leaseUntil().isBefore(Instant.now().plusSeconds(20)), key);
            }
        }
    }

    /** A row of tenant acme in {@code status} at {@code attempt} under lease {@code epoch} (live for 10 s where it has one). */
    private static String row(Connection c, String status, int attempt, long epoch, String approvalId, boolean escalated) throws SQLException {
        String key = "test:payment.refund:" + UUID.randomUUID() + ":v1";
        boolean terminal = status.equals("succeeded") || status.equals("failed_final");
        boolean leased = status.equals("started") || status.equals("unknown");
        exec(c, "INSERT INTO agent_operation_log (tenant, operation_key, agent_id, operation_type, request_hash, payload, status,"
                + " target_system, attempt_count, lease_until, lease_epoch, escalated_at, completed_at, target_object_id,"
                + " approval_required, approval_id) VALUES ('acme', '" + key + "', 'agent-a', 'payment.refund', '" + HASH + "', '{}', '"
                + status + "', 'yookassa', " + attempt + ", " + (leased ? "now() + interval '10 seconds'" : "NULL") + ", " + epoch + ", "
                + (escalated ? "now()" : "NULL") + ", " + (terminal ? "now()" : "NULL") + ", "
                + (status.equals("succeeded") ? "'pay-1'" : "NULL") + ", true, " + (approvalId == null ? "NULL" : "'" + approvalId + "'")
                + ")");
        return key;
    }

    private static OperationView read(Connection c, String key) throws SQLException {
        OperationView row = OperationRows.byKey(c, "acme", key).orElseThrow();
        assertNotNull(row.createdAt());
        return row;
    }

    /** The columns of the row as text; a time as an instant. */
    private static List<String> columns(Connection c, String key, String... columns) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet row = c.createStatement().executeQuery("SELECT " + String.join(", ", columns)
                + " FROM agent_operation_log WHERE operation_key = '" + key + "'")) {
            row.next();
            for (int i = 1; i <= columns.length; i++) {
                Object value = row.getObject(i);
                values.add(value instanceof java.sql.Timestamp time ? time.toInstant().toString() : value == null ? null : value.toString());
            }
        }
        return values;
    }

    /** Each event as "kind attempt status actor: detail", in order. */
    private static List<String> events(Connection c, String key) throws SQLException {
        List<String> events = new ArrayList<>();
        try (ResultSet rows = c.createStatement().executeQuery(
                "SELECT kind, attempt, status, actor, detail FROM operation_event WHERE operation_key = '" + key + "' ORDER BY id")) {
            while (rows.next()) {
                events.add(rows.getString(1) + " " + rows.getInt(2) + " " + rows.getString(3) + " " + rows.getString(4)
                        + ": " + rows.getString(5));
            }
        }
        return events;
    }

    private static void exec(Connection c, String sql) throws SQLException {
        c.createStatement().execute(sql);
    }
}
