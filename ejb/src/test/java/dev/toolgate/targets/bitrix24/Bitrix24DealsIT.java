package dev.toolgate.targets.bitrix24;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.tls.SimulatorTrust;
import jakarta.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The Bitrix24 adapter against the webhook simulator: each documented answer and fault maps to one outcome. */
class Bitrix24DealsIT {

    private static Simulators simulators;
    private static SimulatorClient control;
    private static Bitrix24Deals deals;

    @BeforeAll
    static void start() throws Exception {
        simulators = Simulators.start(0);
        control = new SimulatorClient(simulators.baseUrl());
        deals = new Bitrix24Deals(settings(simulators.bitrix24Url()));
    }

    @AfterAll
    static void stop() {
        simulators.close();
    }

    @Test
    void createsOneDealCarryingOurKey() {
        Attempt dispatch = deal(1);
        Outcome.Succeeded created = assertInstanceOf(Outcome.Succeeded.class, deals.execute(dispatch));
        assertEquals(List.of(created.objectId()), control.effects("bitrix24", dispatch.downstreamKey()));
        assertEquals(created.objectId(), assertInstanceOf(Lookup.Found.class, deals.lookup(dispatch)).objectId());
    }

    @Test
    void reportsAbsentAndDuplicates() {
        Attempt dispatch = deal(1);
        assertInstanceOf(Lookup.Absent.class, deals.lookup(dispatch));
        control.arm("bitrix24", dispatch.downstreamKey(), "duplicate", 1);
        deals.execute(dispatch);
        assertEquals(2, assertInstanceOf(Lookup.Ambiguous.class, deals.lookup(dispatch)).objectIds().size());
    }

    @Test
    void listsBeforeAnyLaterAttemptAndAdoptsADealAlreadyMade() {
        Attempt first = deal(1);
        control.arm("bitrix24", first.downstreamKey(), "drop_response_after_commit", 1);
        assertInstanceOf(Outcome.Unknown.class, deals.execute(first));

        Attempt second = new Attempt(first.downstreamKey(), first.operation(), 2, first.payload(), first.createdAt(), null, null);
        Outcome.Succeeded adopted = assertInstanceOf(Outcome.Succeeded.class, deals.execute(second));

        assertEquals(List.of(adopted.objectId()), control.effects("bitrix24", first.downstreamKey()));
        assertEquals(1, control.creates("bitrix24", first.downstreamKey()), "listed, found, never added twice");
    }

    @Test
    void limitErrorsAreTransientBecauseThePortalDidNotRunTheCall() {
        for (int status : List.of(503, 429)) {
            Attempt dispatch = deal(1);
            control.armStatus("bitrix24", dispatch.downstreamKey(), status, 1);
            assertInstanceOf(Outcome.Transient.class, deals.execute(dispatch), "HTTP " + status);
            assertEquals(0, control.effects("bitrix24", dispatch.downstreamKey()).size());
        }
    }

    @Test
    void serverErrorsAndLostResponsesAreUnknown() {
        Attempt failing = deal(1);
        control.armStatus("bitrix24", failing.downstreamKey(), 500, 1);
        assertInstanceOf(Outcome.Unknown.class, deals.execute(failing));
        Attempt dropped = deal(1);
        control.arm("bitrix24", dropped.downstreamKey(), "drop_response_after_commit", 1);
        assertEquals("connection_lost", assertInstanceOf(Outcome.Unknown.class, deals.execute(dropped)).errorCode());
    }

    @Test
    void methodErrorsAndWrongSecretsAreRejected() {
        Attempt dispatch = deal(1);
        control.armStatus("bitrix24", dispatch.downstreamKey(), 400, 1);
        assertEquals("target_rejected", assertInstanceOf(Outcome.Rejected.class, deals.execute(dispatch)).errorCode());
        Bitrix24Deals wrong = new Bitrix24Deals(settings(simulators.baseUrl() + "/bitrix24/rest/1/not-the-secret/"));
        assertEquals("target_auth_failed", assertInstanceOf(Outcome.Rejected.class, wrong.execute(deal(1))).errorCode());
    }

    @Test
    void refusedConnectionIsTransient() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Bitrix24Deals down = new Bitrix24Deals(settings("http://127.0.0.1:" + closed + "/bitrix24/rest/1/x/"));
        assertInstanceOf(Outcome.Transient.class, down.execute(deal(1)));
        assertInstanceOf(Lookup.Unavailable.class, down.lookup(deal(1)));
    }

    private static Attempt deal(int attempt) {
        return new Attempt("acme/test:crm.deal.create:" + UUID.randomUUID() + ":v1", "crm.deal.create", attempt,
                Json.createObjectBuilder().add("title", "Сделка").add("amount_minor", 990000).add("currency", "RUB").build(),
                Instant.now(), null, null);
    }

    private static Bitrix24Settings settings(String url) {
        return new Bitrix24Settings(URI.create(url), "agent-gw", Duration.ofMillis(500), Duration.ofMillis(1000),
                SimulatorTrust.of(simulators, "bitrix24"));
    }
}
