package dev.toolgate.it.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.MicroSuite;
import dev.toolgate.it.support.TestStack;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.UUID;

/** Only a live token gets in; admins issue, rotate and revoke principals while the gateway runs. */
class AuthenticationIT extends MicroSuite {

    @Test
    void refusesCallsWithoutALiveToken() {
        Agent anyone = new Agent(baseUrl());
        HttpRequest.Builder submit = post(key("anon"), Agent.invoice("o", 1));

        Agent.Answer none = anyone.sendAnonymously(submit);
        Agent.Answer forged = anyone.sendAnonymously(submit.copy().header("Authorization", "Bearer tg_forged"));
        Agent.Answer probe = anyone.sendAnonymously(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/nowhere")));

        assertEquals(401, none.status());
        assertEquals("unauthenticated", none.problem());
        assertEquals("Bearer realm=\"toolgate\"", none.header("WWW-Authenticate"));
        assertEquals(401, forged.status());
        assertEquals(401, probe.status(), "an anonymous caller learns nothing, not even which paths exist");
    }

    @Test
    void adminsManagePrincipalsWithoutARedeploy() {
        String id = "temp-" + UUID.randomUUID().toString().substring(0, 8);
        String first = Credentials.issue(baseUrl(), id, "acme", "auditor");
        assertEquals(404, reader(first).status(), "a live token reads (404: no such key)");

        String rotated = Credentials.issue(baseUrl(), id, "acme", "auditor"); // exists: rotates
        assertEquals(401, reader(first).status(), "the old token stops working at once");
        assertEquals(404, reader(rotated).status());

        Agent.Answer revoked = new Agent(baseUrl()).sendAnonymously(HttpRequest.newBuilder(
                URI.create(baseUrl() + "/api/v1/principals/" + id)).header("Authorization", "Bearer " + TestStack.adminToken()).DELETE());
        assertEquals(204, revoked.status());
        assertEquals(401, reader(rotated).status());
    }
}
