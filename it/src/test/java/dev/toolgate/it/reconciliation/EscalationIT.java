package dev.toolgate.it.reconciliation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import dev.toolgate.it.support.OneCDirect;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

/** What reconciliation cannot settle goes to a person: a duplicate at the target, or look-ups that keep failing. */
class EscalationIT extends MicroSuite {

    @Test
    void escalatesADuplicateAtOnce() {
        String key = key("order-demo-10");
        OneCDirect.createDocument(Agent.downstream(key)); // someone else already created one carrying our key
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals(202, agent().submit(key, Agent.invoice("order-demo-10", 5000)).status());

        Agent.Answer escalated = agent().submit(key, Agent.invoice("order-demo-10", 5000));

        assertEquals(202, escalated.status(), escalated.body());
        assertNotNull(escalated.operation().getString("escalated_at", null), escalated.body());
        JsonObject record = agent().find(key).json();
        assertTrue(record.getJsonArray("events").stream()
                .anyMatch(e -> e.asJsonObject().getString("kind").equals("escalated")
                        && e.asJsonObject().getString("detail").startsWith("DUPLICATE")), record.toString());
        assertEquals(2, oneC.effects("1c", Agent.downstream(key)).size());
        assertEquals(2, oneC.creates("1c", Agent.downstream(key)), "one by someone else, one by the gateway, none after escalation");
    }

    @Test
    void escalatesWhenLookUpsKeepFailing() throws Exception {
        String key = key("order-demo-11");
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals(202, agent().submit(key, Agent.invoice("order-demo-11", 5000)).status());
        oneC.armStatus("1c", key, 503, 5);

        agent().submit(key, Agent.invoice("order-demo-11", 5000)); // look-up 1 fails; the next is due in 1 s
        Thread.sleep(1_200);
        Agent.Answer second = agent().submit(key, Agent.invoice("order-demo-11", 5000)); // look-up 2 fails: the suite allows 2
        Agent.Answer after = agent().submit(key, Agent.invoice("order-demo-11", 5000));

        assertNotNull(second.operation().getString("escalated_at", null), second.body());
        assertEquals(202, after.status());
        assertEquals(2, oneC.lookups("1c", Agent.downstream(key)), "no automatic look-up once a person has it");
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)));
    }
}
