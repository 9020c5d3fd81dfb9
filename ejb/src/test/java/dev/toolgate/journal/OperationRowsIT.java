package dev.toolgate.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.operation.OperationView;
import dev.toolgate.operation.OperationStatus;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The replay check's plain JDBC read ({@link OperationRows}) gives the same view as the entity ({@link Operation#view()})
 * for rows of every shape, on real PostgreSQL through the application's persistence unit: the answer a replay builds
 * from it must be byte-identical to the first answer, which was built from the entity.
 */
class OperationRowsIT {

    private static final String HASH = "c".repeat(64);

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();
    private static EntityManagerFactory unit;

    @BeforeAll
    static void migrate() throws Exception {
        unit = database.persistenceUnit();
        try (Connection c = database.connection(); Statement s = c.createStatement()) {
            // a finished success with everything set: a result, withheld fields, an approval, a trace, microseconds
            s.execute("INSERT INTO agent_operation_log (tenant, operation_key, agent_id, operation_type, target_system, status,"
                    + " request_hash, payload, withheld_fields, target_object_id, response_json, error_code, attempt_count,"
                    + " lease_until, lease_epoch, next_check_at, reconcile_count, settle_after, escalated_at, created_at,"
                    + " updated_at, completed_at, trace_id, span_id, approval_required, approval_id) VALUES ('acme', 'k/full:1',"
                    + " 'agent-7', 'payment.create', 'yookassa', 'succeeded', '" + HASH + "',"
                    + " '{\"amount\":{\"value\":\"125.00\",\"currency\":\"RUB\"},\"описание\":\"счёт № 5\",\"n\":1.50}',"
                    + " 'payment_token,card', 'pay-9', '{\"id\":\"pay-9\",\"paid\":true,\"items\":[1,2]}', NULL, 3,"
                    + " '2026-12-01 10:00:00.123456+00', 7, '2026-12-01 10:05:00.5+00', 2, '2026-12-01 10:01:00+00', NULL,"
                    + " '2026-12-01 09:59:59.000001+00', '2026-12-01 10:00:01.999999+03', '2026-12-01 10:00:02+00',"
                    + " '" + "a".repeat(32) + "', '" + "b".repeat(16) + "', true, 'approval-3')");
            // a fresh capture: every optional column left out
            s.execute("INSERT INTO agent_operation_log (tenant, operation_key, operation_type, target_system, status, request_hash,"
                    + " payload) VALUES ('acme', 'k-bare', 'invoice.create', '1c', 'started', '" + HASH + "', '{}')");
            // an escalated unknown with a failure code
            s.execute("INSERT INTO agent_operation_log (tenant, operation_key, agent_id, operation_type, target_system, status,"
                    + " request_hash, payload, error_code, escalated_at, next_check_at) VALUES ('acme', 'k-escalated', 'agent-1',"
                    + " 'crm.deal.create', 'bitrix24', 'unknown', '" + HASH + "', '{\"title\":\"x\"}', 'duplicate_found',"
                    + " now(), now())");
            // the same key in another tenant, failed for good
            s.execute("INSERT INTO agent_operation_log (tenant, operation_key, operation_type, target_system, status, request_hash,"
                    + " payload, error_code, completed_at) VALUES ('globex', 'k-bare', 'invoice.create', '1c', 'failed_final', '"
                    + HASH + "', '{\"a\":null}', 'rejected', now())");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        unit.close();
    }

    @Test
    void readsEveryShapeOfRowAsTheEntityDoes() throws SQLException {
        for (List<String> id : List.of(List.of("acme", "k/full:1"), List.of("acme", "k-bare"), List.of("acme", "k-escalated"),
                List.of("globex", "k-bare"))) {
            OperationView byJdbc = jdbc(id.get(0), id.get(1)).orElseThrow();
            EntityManager em = unit.createEntityManager();
            try {
                OperationView byEntity = em.find(Operation.class, new OperationId(id.get(0), id.get(1))).view();
                assertEquals(byEntity, byJdbc, id.toString());
            } finally {
                em.close();
            }
        }
    }

    @Test
    void aRowReadBackHoldsWhatWasWritten() throws SQLException {
        OperationView full = jdbc("acme", "k/full:1").orElseThrow();
        assertEquals(OperationStatus.SUCCEEDED, full.status());
        assertEquals(List.of("payment_token", "card"), full.withheldFields());
        assertEquals("счёт № 5", full.payload().getString("описание"));
        assertEquals("2026-12-01T10:00:00.123456Z", full.leaseUntil().toString());
        assertEquals("2026-12-01T07:00:01.999999Z", full.updatedAt().toString(), "an instant, whatever offset it was written in");
        assertTrue(full.approvalRequired());
        OperationView bare = jdbc("acme", "k-bare").orElseThrow();
        assertEquals(List.of(), bare.withheldFields());
        assertEquals(null, bare.result());
        assertEquals(null, bare.agentId());
        assertEquals(1, bare.leaseEpoch());
    }

    @Test
    void anInstantIsReadTheSameWhateverZoneTheSessionSpeaks() throws SQLException {
        // the server writes a timestamptz in the session's zone, with its offset: the instant read must not depend on it
        // (nor on the JVM's zone, which a Timestamp read of a value with an offset does not consult)
        for (String zone : List.of("Europe/Moscow", "America/Sao_Paulo", "Asia/Kathmandu", "UTC")) {
            try (Connection c = database.connection(); Statement s = c.createStatement()) {
                s.execute("SET TIME ZONE '" + zone + "'");
                OperationView full = OperationRows.byKey(c, "acme", "k/full:1").orElseThrow();
                assertEquals("2026-12-01T10:00:00.123456Z", full.leaseUntil().toString(), zone);
                assertEquals("2026-12-01T09:59:59.000001Z", full.createdAt().toString(), zone);
                assertEquals("2026-12-01T07:00:01.999999Z", full.updatedAt().toString(), zone);
            }
        }
    }

    @Test
    void rowsLockedTogetherAreTheRowsAsReadOneByOneAndAMissingKeyIsLeftOut() throws SQLException {
        OperationView full = jdbc("acme", "k/full:1").orElseThrow();
        OperationView escalated = jdbc("acme", "k-escalated").orElseThrow();
        OperationView otherTenant = jdbc("globex", "k-bare").orElseThrow();
        OperationView missing = new OperationView("acme", "k-missing", null, "invoice.create", "1c", OperationStatus.UNKNOWN, HASH,
                null, List.of(), null, null, null, 1, null, 1, null, 0, null, null, null, null, null, null, null, false, null);
        try (Connection holder = database.connection()) {
            holder.setAutoCommit(false);
            java.util.Map<OperationId, OperationView> locked = OperationRows.lockedAll(holder, List.of(full, escalated, otherTenant, missing));
            assertEquals(java.util.Map.of(new OperationId("acme", "k/full:1"), full, new OperationId("acme", "k-escalated"), escalated,
                    new OperationId("globex", "k-bare"), otherTenant), locked);
            try (Connection other = database.connection()) {
                SQLException refused = assertThrows(SQLException.class, () -> other.createStatement().execute(
                        "SELECT 1 FROM agent_operation_log WHERE tenant = 'globex' AND operation_key = 'k-bare' FOR UPDATE NOWAIT"));
                assertEquals("55P03", refused.getSQLState(), "held until the transaction ends");
            }
            holder.rollback();
        }
    }

    @Test
    void aKeyOfNoOperationOrOfAnotherTenantReadsAsNone() throws SQLException {
        assertEquals(Optional.empty(), jdbc("acme", "k-missing"));
        assertEquals(Optional.empty(), jdbc("initech", "k-bare"));
        assertEquals("failed_final", jdbc("globex", "k-bare").orElseThrow().status().dbName(), "each tenant's own row");
    }

    @Test
    void theLockedReadHoldsTheRowUntilItsTransactionEndsAndReadsItTheSame() throws SQLException {
        try (Connection holder = database.connection(); Connection other = database.connection()) {
            holder.setAutoCommit(false);
            OperationView locked = OperationRows.byKeyLocked(holder, "acme", "k-escalated").orElseThrow();
            assertEquals(jdbc("acme", "k-escalated").orElseThrow(), locked);
            SQLException refused = assertThrows(SQLException.class, () -> other.createStatement().execute(
                    "SELECT 1 FROM agent_operation_log WHERE tenant = 'acme' AND operation_key = 'k-escalated' FOR UPDATE NOWAIT"));
            assertEquals("55P03", refused.getSQLState(), "lock_not_available: the row is held");
            holder.rollback();
            other.createStatement().execute(
                    "SELECT 1 FROM agent_operation_log WHERE tenant = 'acme' AND operation_key = 'k-escalated' FOR UPDATE NOWAIT");
        }
    }

    @Test
    void plainJdbcInATransactionRunsOnTheEntityManagersOwnConnection() {
        JournalDatabase.inTransaction(unit, em -> {
            OperationView viaJdbc = JournalConnections.run("read", () ->
                    OperationRows.byKeyLocked(JournalConnections.of(em), "acme", "k-bare").orElseThrow());
            // the JDBC read locked the row: JPA locking it again without waiting (NOWAIT) succeeds only on the same connection
            assertEquals(viaJdbc, em.find(Operation.class, new OperationId("acme", "k-bare"),
                    jakarta.persistence.LockModeType.PESSIMISTIC_WRITE, java.util.Map.of("jakarta.persistence.lock.timeout", 0)).view());
            return null;
        });
    }

    private static Optional<OperationView> jdbc(String tenant, String key) throws SQLException {
        try (Connection c = database.connection()) {
            return OperationRows.byKey(c, tenant, key);
        }
    }
}
