package dev.toolgate.it.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import org.junit.jupiter.api.Test;

/**
 * Tenants are kept apart: another tenant's key is invisible and is another intent; agents of one tenant share its operations.
 */
class TenantsIT extends MicroSuite {

    @Test
    void anotherTenantCanNeitherSeeNorReplayAKey() {
        String key = key("tenant");
        Agent acme = new Agent(baseUrl());
        Agent globex = new Agent(baseUrl(), "agent-globex");
        Agent.Answer ours = acme.submit(key, Agent.invoice("order-t", 100));

        Agent.Answer probe = globex.find(key);
        Agent.Answer theirs = globex.submit(key, Agent.invoice("order-t", 100));

        assertEquals(201, ours.status(), ours.body());
        assertEquals(404, probe.status(), "another tenant's key is invisible");
        assertEquals(201, theirs.status(), "the same key in another tenant is another intent: " + theirs.body());
        assertNotEquals(ours.json().getString("target_object_id"), theirs.json().getString("target_object_id"));
        assertEquals(1, oneC.effects("1c", "acme/" + key).size());
        assertEquals(1, oneC.effects("1c", "globex/" + key).size());
    }

    @Test
    void agentsOfOneTenantInheritEachOthersOperations() {
        String key = key("inherit");
        Agent.Answer first = new Agent(baseUrl(), "agent-a").submit(key, Agent.invoice("order-i", 100));
        Agent.Answer replacement = new Agent(baseUrl(), "agent-b").submit(key, Agent.invoice("order-i", 100));

        assertEquals(201, first.status());
        assertEquals(200, replacement.status(), "agent B replays A's result instead of acting again");
        assertEquals(first.body(), replacement.body());
        assertEquals("agent-a", new Agent(baseUrl(), "auditor").find(key).json().getJsonArray("events")
                .getJsonObject(0).getString("actor"));
    }
}
