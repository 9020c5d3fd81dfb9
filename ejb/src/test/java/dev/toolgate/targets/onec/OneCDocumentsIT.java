package dev.toolgate.targets.onec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import dev.toolgate.targets.Dispatch;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.tls.SimulatorTrust;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;

/** The 1C adapter against the OData simulator: each documented answer and fault maps to one outcome. */
class OneCDocumentsIT {

    private static Simulators simulators;
    private static SimulatorClient control;
    private static OneCDocuments documents;

    @BeforeAll
    static void start() throws Exception {
        simulators = Simulators.start(0);
        control = new SimulatorClient(simulators.baseUrl());
        documents = new OneCDocuments(settings(simulators.oneCUrl(), Simulators.ONE_C_PASSWORD));
    }

    @AfterAll
    static void stop() {
        simulators.close();
    }

    @Test
    void createsOneDocumentCarryingOurKey() {
        Dispatch dispatch = invoice();
        Outcome.Succeeded created = assertInstanceOf(Outcome.Succeeded.class, documents.create(dispatch));
        assertEquals(List.of(created.objectId()), control.effects("1c", dispatch.downstreamKey()));
        assertEquals(201, created.httpStatus());
        assertEquals(false, created.result().getBoolean("posted"));
    }

    @Test
    void postsTheDocumentWhenAskedAndReportsThePostedFlag() {
        Dispatch dispatch = invoice(Json.createObjectBuilder(payload()).add("post", true).build());
        Outcome.Succeeded created = assertInstanceOf(Outcome.Succeeded.class, documents.create(dispatch));
        assertEquals(true, created.result().getBoolean("posted"));
        assertEquals(true, assertInstanceOf(Lookup.Found.class, documents.find(dispatch)).result().getBoolean("posted"));
    }

    @Test
    void keepsTheCreatedDocumentWhenPostingFailsAndSaysSo() {
        Dispatch dispatch = invoice(Json.createObjectBuilder(payload()).add("post", true).build());
        control.armStatus("1c", "/Post", 500, 1);
        Outcome.Succeeded created = assertInstanceOf(Outcome.Succeeded.class, documents.create(dispatch));
        assertEquals(false, created.result().getBoolean("posted"), "read back from 1C, not assumed");
        assertEquals(List.of(created.objectId()), control.effects("1c", dispatch.downstreamKey()), "one document, never a second");
        assertTrue(created.result().getString("post_error").startsWith("1C answered HTTP 500"), created.result().toString());
    }

    @Test
    void findsTheDocumentByOurKey() {
        Dispatch dispatch = invoice();
        Outcome.Succeeded created = (Outcome.Succeeded) documents.create(dispatch);
        assertEquals(created.objectId(), assertInstanceOf(Lookup.Found.class, documents.find(dispatch)).objectId());
    }

    @Test
    void findsKeysThatNeedODataQuoting() {
        Dispatch dispatch = new Dispatch("test:invoice.create:o'brien&co+1:v1", "invoice.create", 1, payload(), Instant.now(), null, null);
        Outcome.Succeeded created = (Outcome.Succeeded) documents.create(dispatch);
        assertEquals(created.objectId(), assertInstanceOf(Lookup.Found.class, documents.find(dispatch)).objectId());
    }

    @Test
    void reportsAbsentWhenNoDocumentCarriesTheKey() {
        assertInstanceOf(Lookup.Absent.class, documents.find(invoice()));
    }

    @Test
    void reportsTwoDocumentsForOneKeyAsAmbiguous() {
        Dispatch dispatch = invoice();
        control.arm("1c", dispatch.downstreamKey(), "duplicate", 1);
        documents.create(dispatch);
        assertEquals(2, assertInstanceOf(Lookup.Ambiguous.class, documents.find(dispatch)).objectIds().size());
    }

    @Test
    void droppedResponseAfterCommitIsUnknownAndTheDocumentExists() {
        Dispatch dispatch = invoice();
        control.arm("1c", dispatch.downstreamKey(), "drop_response_after_commit", 1);
        assertEquals("connection_lost", assertInstanceOf(Outcome.Unknown.class, documents.create(dispatch)).errorCode());
        assertEquals(1, control.effects("1c", dispatch.downstreamKey()).size());
    }

    @Test
    void resetBeforeCommitIsAlsoUnknownBecauseTheCallerCannotTellTheDifference() {
        Dispatch dispatch = invoice();
        control.arm("1c", dispatch.downstreamKey(), "reset_before_commit", 1);
        assertInstanceOf(Outcome.Unknown.class, documents.create(dispatch));
        assertInstanceOf(Lookup.Absent.class, documents.find(dispatch));
    }

    @Test
    void serverAndProxyErrorsAreUnknown() {
        for (int status : List.of(500, 502, 503, 504)) {
            Dispatch dispatch = invoice();
            control.armStatus("1c", dispatch.downstreamKey(), status, 1);
            Outcome.Unknown unknown = assertInstanceOf(Outcome.Unknown.class, documents.create(dispatch), "HTTP " + status);
            assertEquals(status, unknown.httpStatus());
        }
    }

    @Test
    void responseTimeoutIsUnknown() {
        Dispatch dispatch = invoice();
        control.armDelay("1c", dispatch.downstreamKey(), 1_500); // beyond the 700 ms read timeout of these settings
        assertEquals("response_timeout", assertInstanceOf(Outcome.Unknown.class, documents.create(dispatch)).errorCode());
    }

    @Test
    void badRequestIsRejectedWithTheODataCodeOnly() {
        Dispatch dispatch = invoice();
        control.armStatus("1c", dispatch.downstreamKey(), 400, 1);
        Outcome.Rejected rejected = assertInstanceOf(Outcome.Rejected.class, documents.create(dispatch));
        assertEquals("target_rejected", rejected.errorCode());
        assertEquals("1C answered HTTP 400 (odata.error code 0)", rejected.detail());
    }

    @Test
    void rateLimitIsTransient() {
        Dispatch dispatch = invoice();
        control.armStatus("1c", dispatch.downstreamKey(), 429, 1);
        assertInstanceOf(Outcome.Transient.class, documents.create(dispatch));
    }

    @Test
    void refusedConnectionIsTransientBecauseNothingWasSent() throws Exception {
        OneCDocuments down = new OneCDocuments(settings("http://127.0.0.1:" + closedPort() + "/1c/demo/odata/standard.odata",
                Simulators.ONE_C_PASSWORD));
        assertEquals("connect_refused", assertInstanceOf(Outcome.Transient.class, down.create(invoice())).errorCode());
        assertEquals("connect_refused", assertInstanceOf(Lookup.Unavailable.class, down.find(invoice())).errorCode());
    }

    @Test
    void wrongCredentialsAreRejected() {
        OneCDocuments wrong = new OneCDocuments(settings(simulators.oneCUrl(), "not-the-password"));
        Dispatch dispatch = invoice();
        assertEquals("target_auth_failed", assertInstanceOf(Outcome.Rejected.class, wrong.create(dispatch)).errorCode());
        assertEquals(0, control.creates("1c", dispatch.downstreamKey()));
    }

    @Test
    void resolvesTheCounterpartyByInn() {
        Dispatch dispatch = invoice(Json.createObjectBuilder(payload()).add("counterparty_inn", "7707083893").build());
        assertInstanceOf(Outcome.Succeeded.class, documents.create(dispatch));
    }

    @Test
    void refusesAnUnknownOrAmbiguousInnWithoutCreatingAnything() {
        for (String inn : List.of("1234567890", "5001000001")) {
            Dispatch dispatch = invoice(Json.createObjectBuilder(payload()).add("counterparty_inn", inn).build());
            assertEquals("counterparty_not_resolved", assertInstanceOf(Outcome.Rejected.class, documents.create(dispatch)).errorCode());
            assertEquals(0, control.creates("1c", dispatch.downstreamKey()), inn);
        }
    }

    @Test
    void refusesACurrencyWithNoConfiguredReferenceWithoutCalling() {
        Dispatch dispatch = invoice(Json.createObjectBuilder(payload()).add("currency", "JPY").build());
        assertEquals("currency_not_configured", assertInstanceOf(Outcome.Rejected.class, documents.create(dispatch)).errorCode());
        assertEquals(0, control.creates("1c", dispatch.downstreamKey()));
    }

    private static Dispatch invoice() {
        return invoice(payload());
    }

    private static Dispatch invoice(JsonObject payload) {
        return new Dispatch("test:invoice.create:" + UUID.randomUUID() + ":v1", "invoice.create", 1, payload, Instant.now(), null, null);
    }

    private static JsonObject payload() {
        return Json.createObjectBuilder().add("order_id", "order-demo-1").add("amount_minor", 125000).add("currency", "RUB").build();
    }

    private static OneCSettings settings(String url, String password) {
        return new OneCSettings(URI.create(url + "/"), Simulators.ONE_C_USER, password, "Document_СчетНаОплатуПокупателю",
                Simulators.ONE_C_KEY_REQUISITE, Simulators.oneCOrganizationKey(),
                OneCSettings.currencies(Simulators.oneCCurrencyKeys()), ZoneId.of("Europe/Moscow"),
                Duration.ofMillis(500), Duration.ofMillis(700), SimulatorTrust.of(simulators, "1c"));
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
