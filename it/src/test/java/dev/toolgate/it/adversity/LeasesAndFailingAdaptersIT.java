package dev.toolgate.it.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.it.support.YooKassaDirect;
import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * The edges of the lease and of the adapter boundary, on a gateway process whose reconcile job runs
 * every second: attempts that outlive their lease, look-ups racing a revoke, adapters and look-ups
 * that throw. Lease 3 s and settle window 6 s, so that the job takes lapsed leases over while the
 * slow attempts are still waiting.
 */
@Lane(2)
class LeasesAndFailingAdaptersIT {

    private static final String DATABASE = "leases";
    private static GatewayProcess gateway;
    private final SimulatorClient targets = TestStack.targets();

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase(DATABASE));
        config.put("toolgate.lease-seconds", "3");
        config.put("toolgate.reconcile.settle-seconds", "6");
        config.put("toolgate.reconcile.interval-seconds", "1");
        config.put("toolgate.reconcile.max-attempts", "2");
        gateway = TestStack.readyGateway(config, "leases-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
    }

    @Test
    void anOwnersSuccessAfterItsLeaseLapsedSettlesTheOperation() {
        String key = "test:invoice.create:late-" + UUID.randomUUID() + ":v1";
        targets.armDelay("1c", key, 5_000); // 1C answers after the 3 s lease: the job has taken the row over by then
        Agent.Answer answer = agent().submit(key, Agent.invoice("order-late", 5000));

        assertEquals(201, answer.status(), "the owner's success is the best evidence there is: " + answer.body());
        JsonObject record = agent().find(key).json();
        assertEquals("succeeded", record.getString("status"));
        assertTrue(kinds(record).contains("lease_expired"), "the job had taken the lapsed lease: " + kinds(record));
        assertEquals(1, targets.creates("1c", Agent.downstream(key)));
    }

    @Test
    void anAttemptThatLostItsLeaseBeforeSendingSendsNothing() throws Exception {
        String key = "test:invoice.create:lost-" + UUID.randomUUID() + ":v1";
        // the counterparty read before the create takes 6 s: the lease lapses, the job takes the row
        targets.armDelay("1c", Agent.PERSON_INN, 6_000);
        Agent.Answer stale = agent().submit(key, Agent.invoiceToPerson("order-lost", 5000));

        assertEquals(0, targets.creates("1c", Agent.downstream(key)), "the stale attempt must not create: " + stale.body());
        assertNotEquals(201, stale.status(), stale.body());
        JsonObject record = agent().find(key).json();
        assertTrue(record.getJsonArray("events").stream().map(e -> e.asJsonObject())
                .anyMatch(e -> e.getString("kind").equals("outcome_refused") && e.getString("detail", "").contains("lease_lost")),
                record.toString());

        // nothing was sent: once the look-ups prove it, the caller (who alone holds the INN) sends it
        await(() -> "failed_retryable".equals(agent().find(key).json().getString("status")), "the job to find nothing");
        Agent.Answer sent = agent().submit(key, Agent.invoiceToPerson("order-lost", 5000));
        assertEquals(201, sent.status(), sent.body());
        assertEquals(1, targets.effects("1c", Agent.downstream(key)).size());
    }

    @Test
    void aRevokeCommittedWhileALookUpWaitsForTheRowStopsTheNextAttempt() throws Exception {
        String key = "test:payment.create:race-" + UUID.randomUUID() + ":v1";
        String body = "{\"operation\":\"payment.create\",\"target\":\"yookassa\",\"payload\":{\"order_id\":\"order-race-"
                + UUID.randomUUID() + "\",\"amount_minor\":70000,\"currency\":\"RUB\",\"description\":\"Заказ\"}}";
        assertEquals(202, agent().submit(key, body).status());
        approve(key);
        targets.arm("yookassa", Agent.downstream(key), "reset_before_commit", 1); // sent, nothing done, no answer
        assertEquals(202, agent().submit(key, body).status(), "attempt 1's outcome is unknown");

        // the job looks up at once, finds nothing inside the settle window; its next look-up is slow
        await(() -> events(key, "reconciled", "%settle window%") >= 1, "the first look-up");
        targets.arm("yookassa", "payments", "GET", "delay", 1, 3_000);
        await(() -> events(key, "reconcile_started", "%") >= 2, "the look-up after the settle window");

        try (Connection c = TestStack.connect(DATABASE)) {
            c.setAutoCommit(false);
            exec(c, "SELECT 1 FROM agent_operation_log WHERE tenant = 'acme' AND operation_key = ? FOR UPDATE", key);
            exec(c, "UPDATE operation_approval SET revoked_at = now(), revoked_by = 'approver', revoke_reason = 'withdrawn'"
                    + " WHERE tenant = 'acme' AND operation_key = ? AND revoked_at IS NULL", key);
            Thread.sleep(4_500); // the slow look-up answers "absent" and its record waits for this lock
            c.commit(); // the revoke commits before the look-up's decision is taken
        }

        await(() -> "failed_final".equals(agent().find(key).json().getString("status")), "the operation to fail for good");
        JsonObject record = agent().find(key).json();
        assertEquals("approval_revoked", record.getString("error_code"), record.toString());
        assertEquals(1, record.getInt("attempt_count"), "no attempt after the revoke");
        assertEquals(List.of(), targets.effects("yookassa", Agent.downstream(key)), "no payment after the revoke");
    }

    @Test
    void aLookUpThatThrowsIsAFailedLookUpAndDoesNotHoldUpTheOthers() {
        String broken = "test:invoice.create:throws-" + UUID.randomUUID() + ":v1";
        String healthy = "test:invoice.create:fine-" + UUID.randomUUID() + ":v1";
        targets.arm("1c", broken, "reset_before_commit", 1);
        targets.arm("1c", healthy, "drop_response_after_commit", 1);
        assertEquals(202, agent().submit(broken, Agent.invoice("order-throws", 5000)).status());
        assertEquals(202, agent().submit(healthy, Agent.invoice("order-fine", 5000)).status());
        targets.arm("1c", broken, "GET", "wrong_shape", 20, 0); // every look-up of it gets an answer the adapter cannot read

        await(() -> agent().find(broken).json().get("escalated_at") instanceof jakarta.json.JsonString,
                "the look-ups that throw to be counted and escalated");
        JsonObject escalated = agent().find(broken).json();
        assertEquals(2, escalated.getInt("reconcile_count"), escalated.toString());
        assertEquals("adapter_error", escalated.getString("error_code"));
        await(() -> "succeeded".equals(agent().find(healthy).json().getString("status")), "the other operation to settle");
        assertEquals(1, targets.effects("1c", Agent.downstream(healthy)).size());
    }

    @Test
    void anAdapterThatThrowsBeforeSendingLeavesNoOperationHalfDone() {
        String paymentId = YooKassaDirect.create("payments",
                "{\"amount\":{\"value\":\"500.00\",\"currency\":\"RUB\"},\"capture\":true,\"description\":\"shop\"}").getString("id");
        String key = "test:payment.refund:throws-" + UUID.randomUUID() + ":v1";
        String body = "{\"operation\":\"payment.refund\",\"target\":\"yookassa\",\"payload\":{\"payment_id\":\"" + paymentId
                + "\",\"amount_minor\":10000,\"currency\":\"RUB\",\"reason\":\"Возврат\"}}";
        assertEquals(202, agent().submit(key, body).status());
        approve(key);
        // attempt 1 is rate-limited; every later attempt re-checks the payment first, and reads an answer
        // of the wrong shape, on which the adapter throws before it sends anything
        targets.armStatus("yookassa", Agent.downstream(key), 429, 1);
        targets.arm("yookassa", "payments/" + paymentId, "GET", "wrong_shape", 10, 0);
        Agent.Answer answer = agent().submit(key, body);

        assertEquals("retries-exhausted", answer.problem(), answer.body());
        JsonObject record = agent().find(key).json();
        assertEquals("failed_final", record.getString("status"));
        assertTrue(record.getJsonObject("error").getString("detail").contains("none executed; the last: adapter_error"), record.toString());
        assertEquals(0, rows(key, "started") + rows(key, "unknown"), "no attempt left leased, nothing left unsettled");
        assertEquals(List.of(), targets.effects("yookassa", Agent.downstream(key)), "no refund was made");
    }

    private void approve(String key) {
        Agent approver = new Agent(gateway.baseUrl(), "approver");
        String fingerprint = approver.find(key).json().getString("request_hash");
        Agent.Answer granted = approver.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api/v1/approvals"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"operation_key\":\"" + key + "\",\"request_hash\":\"" + fingerprint
                        + "\",\"expires_in_seconds\":3600}")));
        assertEquals(201, granted.status(), granted.body());
    }

    private static Agent agent() {
        return new Agent(gateway.baseUrl());
    }

    private static List<String> kinds(JsonObject record) {
        return record.getJsonArray("events").stream().map(e -> e.asJsonObject().getString("kind")).toList();
    }

    private static int events(String key, String kind, String detailLike) {
        return count("SELECT count(*) FROM operation_event WHERE operation_key = ? AND kind = ? AND coalesce(detail, '') LIKE ?",
                key, kind, detailLike);
    }

    private static int rows(String key, String status) {
        return count("SELECT count(*) FROM agent_operation_log WHERE operation_key = ? AND status = ?", key, status);
    }

    private static int count(String sql, String... values) {
        try (Connection c = TestStack.connect(DATABASE); PreparedStatement query = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                query.setString(i + 1, values[i]);
            }
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void exec(Connection c, String sql, String key) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            statement.setString(1, key);
            statement.execute();
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(40));
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
