package dev.toolgate.it.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.JournalRows;
import dev.toolgate.it.support.MicroSuite;
import dev.toolgate.it.support.TestStack;
import org.junit.jupiter.api.Test;


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
     * stored result nor {@code idempotency-key-reused}, sends nothing, and tells the agent to call again. The row is
     * written into the journal as that release's instance left it, never seen by this one.
     */
    @Test
    void aKeyFingerprintedByANewerReleasesSchemeIsNeitherReplayedNorRefusedAndSendsNothing() throws Exception {
        String original = key("order-scheme");
        assertEquals(201, agent().submit(original, Agent.invoice("order-scheme", 3000)).status());
        String key = key("order-scheme-newer");
        JournalRows.copyFinished(() -> TestStack.connect("toolgate"), original, key, "s2:");
        for (long amount : new long[] {3000, 3001}) { // the same payload and another: neither can be told here
            for (int call = 0; call < 2; call++) { // and not from memory after the first
                Agent.Answer answer = agent().submit(key, Agent.invoice("order-scheme", amount));
                assertEquals(503, answer.status(), answer.body());
                assertEquals("fingerprint-scheme-unknown", answer.problem());
                assertEquals("5", answer.header("Retry-After"));
            }
        }
        assertEquals(0, oneC.creates("1c", Agent.downstream(key)), "nothing was sent");
    }
}
