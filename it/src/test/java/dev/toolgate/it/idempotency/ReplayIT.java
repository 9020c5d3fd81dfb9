package dev.toolgate.it.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * A repeated request under one key answers the first outcome again, body and status, whatever it was:
 * a created object, or a target's refusal; the record shows how it got there.
 */
class ReplayIT extends MicroSuite {

    @Test
    void createsOnceAndReplaysTheSameObject() {
        String key = key("order-demo-1");
        Agent.Answer first = agent().submit(key, Agent.invoice("order-demo-1", 125000));
        Agent.Answer again = agent().submit(key, Agent.invoice("order-demo-1", 125000));

        assertEquals(201, first.status(), first.body());
        assertNotNull(first.header("Location"));
        assertEquals(200, again.status());
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertEquals(first.body(), again.body(), "a replay answers the identical body");
        String objectId = first.json().getString("target_object_id");
        assertEquals(List.of(objectId), oneC.effects("1c", Agent.downstream(key)), "1C holds exactly one document for the key");
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)));
        String record = agent().findByPath(key).body();
        String sameFields = first.body().substring(0, first.body().length() - 1); // the record adds payload and events
        assertTrue(record.startsWith(sameFields), "the record at Location shows the same representation: " + record);
    }

    @Test
    void replaysATargetRejectionWithItsOriginalStatus() {
        String key = key("order-demo-6");
        oneC.armStatus("1c", key, 400, 1);

        Agent.Answer rejected = agent().submit(key, Agent.invoice("order-demo-6", 5000));
        Agent.Answer replayed = agent().submit(key, Agent.invoice("order-demo-6", 5000));

        assertEquals(422, rejected.status());
        assertEquals("target-rejected", rejected.problem());
        assertEquals("failed_final", rejected.operation().getString("status"));
        assertEquals(422, replayed.status());
        assertEquals("true", replayed.header("Idempotent-Replayed"));
        assertEquals(rejected.body(), replayed.body());
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "a final failure is never sent again");
    }

    @Test
    void showsTheRecordWithItsEvents() {
        String key = key("order-demo-8");
        agent().submit(key, Agent.invoice("order-demo-8", 990));
        agent().submit(key, Agent.invoice("order-demo-8", 990));

        JsonObject record = agent().find(key).json();

        assertEquals("succeeded", record.getString("status"));
        assertEquals(990, record.getJsonObject("payload").getInt("amount_minor"));
        assertEquals(64, record.getString("request_hash").length());
        // a replay changes nothing, so it is counted and logged, not journaled: the story is the effect's
        assertEquals(List.of("captured", "outcome"),
                record.getJsonArray("events").stream().map(e -> e.asJsonObject().getString("kind")).toList());
    }
}
