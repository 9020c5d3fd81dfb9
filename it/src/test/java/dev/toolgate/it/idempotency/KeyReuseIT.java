package dev.toolgate.it.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import org.junit.jupiter.api.Test;

/** A key names one intent: the same key with another payload is refused and nothing is sent. */
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
}
