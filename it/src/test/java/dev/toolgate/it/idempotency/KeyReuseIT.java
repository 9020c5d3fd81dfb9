package dev.toolgate.it.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import dev.toolgate.it.support.TestStack;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;

/**
 * A key names one intent: the same key with another payload is refused and nothing is sent; a key whose fingerprint
 * this release cannot compare is neither.
 */
class KeyReuseIT extends MicroSuite {

    @Test
    void rejectsSameKeyWithChangedAmountAndCreatesNothing() {
        String key = key("order-demo-2");
        assertEquals(201, agent().submit(key, Agent.invoice("order-demo-2", 125000)).status());

        Agent.Answer changed = agent().submit(key, Agent.invoice("order-demo-2", 125001));

        assertEquals(422, changed.status());
        assertEquals("idempotency-key-reused", changed.problem());
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size());
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "nothing was sent for the changed payload");
    }

    /**
     * After a rollback, a key a newer release captured under a fingerprint scheme of its own ({@code sN:…},
     * docs/operations.md, Upgrading): this release cannot tell a retry from another intent, so it answers neither the
     * stored result nor {@code idempotency-key-reused}, sends nothing, and tells the agent to call again.
     */
    @Test
    void aKeyFingerprintedByANewerReleasesSchemeIsNeitherReplayedNorRefusedAndSendsNothing() throws Exception {
        String key = key("order-scheme");
        assertEquals(201, agent().submit(key, Agent.invoice("order-scheme", 3000)).status());
        try (Connection c = TestStack.connect("toolgate"); PreparedStatement newer = c.prepareStatement(
                "UPDATE agent_operation_log SET request_hash = 's2:' || request_hash WHERE operation_key = ?")) {
            newer.setString(1, key);
            assertEquals(1, newer.executeUpdate());
        }
        for (long amount : new long[] {3000, 3001}) { // the same payload and another: neither can be told here
            Agent.Answer answer = agent().submit(key, Agent.invoice("order-scheme", amount));
            assertEquals(503, answer.status(), answer.body());
            assertEquals("fingerprint-scheme-unknown", answer.problem());
            assertEquals("5", answer.header("Retry-After"));
        }
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "nothing was sent again");
    }
}
