package dev.toolgate.it.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * Tenants are kept apart: another tenant's key is invisible and is another intent; agents of one tenant share its operations;
 * a reconcile run, which works every tenant's operations, shows each tenant only its own counts.
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

    @Test
    void aReconcileRunShowsEachTenantOnlyTheCountsOfItsOwnOperations() throws Exception {
        String ours = key("lost-acme");
        String theirs = key("lost-globex");
        oneC.arm("1c", ours, "drop_response_after_commit", 1);
        oneC.arm("1c", theirs, "drop_response_after_commit", 1);
        assertEquals(202, new Agent(baseUrl()).submit(ours, Agent.invoice("order-lost-acme", 100)).status());
        assertEquals(202, new Agent(baseUrl(), "agent-globex").submit(theirs, Agent.invoice("order-lost-globex", 100)).status());

        Agent acmeOperator = new Agent(baseUrl(), "operator");
        JsonObject run = acmeOperator.reconcile(); // a run works every tenant's due operations
        String location = baseUrl() + "/api/v1/reconciliations/" + run.getJsonNumber("execution_id").longValue();
        JsonObject asGlobexSeesIt = new Agent(baseUrl(), "operator-globex").awaitRun(location);

        assertEquals("succeeded", new Agent(baseUrl(), "agent-globex").find(theirs).json().getString("status"));
        assertEquals("succeeded", new Agent(baseUrl()).find(ours).json().getString("status"));
        assertEquals(Json.createObjectBuilder().add("found", 1).add("processes_checked", 0).build(), asGlobexSeesIt.getJsonObject("counts"),
                "globex's one lost answer, and nothing of acme's: " + asGlobexSeesIt);
        assertTrue(run.getJsonObject("counts").getInt("found") >= 1, run.toString());
        assertEquals(run.getJsonNumber("execution_id"), asGlobexSeesIt.getJsonNumber("execution_id"));
    }
}
