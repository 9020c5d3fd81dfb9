package dev.toolgate.targets.onec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import dev.toolgate.targets.Attempt;
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
        Attempt dispatch = invoice();
        Outcome.Succeeded created = assertInstanceOf(Outcome.Succeeded.class, documents.execute(dispatch));
        assertEquals(List.of(created.objectId()), control.effects("1c", dispatch.downstreamKey()));
        assertEquals(201, created.httpStatus());
        assertEquals(false, created.result().getBoolean("posted"));
    }

    @Test
    void postsTheDocumentWhenAskedAndReportsThePostedFlag() {
        Attempt dispatch = invoice(Json.createObjectBuilder(payload()).add("post", true).build());
        Outcome.Succeeded created = assertInstanceOf(Outcome.Succeeded.class, documents.execute(dispatch));
        assertEquals(true, created.result().getBoolean("posted"));
        assertEquals(true, assertInstanceOf(Lookup.Found.class, documents.lookup(dispatch)).result().getBoolean("posted"));
    }

    @Test
    void keepsTheCreatedDocumentWhenPostingFailsAndSaysSo() {
        Attempt dispatch = invoice(Json.createObjectBuilder(payload()).add("post", true).build());
        control.armStatus("1c", "/Post", 500, 1);
        Outcome.Succeeded created = assertInstanceOf(Outcome.Succeeded.class, documents.execute(dispatch));
        assertEquals(false, created.result().getBoolean("posted"), "read back from 1C, not assumed");
        assertEquals(List.of(created.objectId()), control.effects("1c", dispatch.downstreamKey()), "one document, never a second");
        assertTrue(created.result().getString("post_error").startsWith("1C answered HTTP 500"), created.result().toString());
    }

    @Test
    void findsTheDocumentByOurKey() {
        Attempt dispatch = invoice();
        Outcome.Succeeded created = (Outcome.Succeeded) documents.execute(dispatch);
        assertEquals(created.objectId(), assertInstanceOf(Lookup.Found.class, documents.lookup(dispatch)).objectId());
    }

    @Test
    void findsKeysThatNeedODataQuoting() {
        Attempt dispatch = new Attempt("test:invoice.create:o'brien&co+1:v1", "invoice.create", 1, payload(), Instant.now(), null, null);
        Outcome.Succeeded created = (Outcome.Succeeded) documents.execute(dispatch);
        assertEquals(created.objectId(), assertInstanceOf(Lookup.Found.class, documents.lookup(dispatch)).objectId());
    }

    @Test
    void reportsAbsentWhenNoDocumentCarriesTheKey() {
        assertInstanceOf(Lookup.Absent.class, documents.lookup(invoice()));
    }

    @Test
    void reportsTwoDocumentsForOneKeyAsAmbiguous() {
        Attempt dispatch = invoice();
        control.arm("1c", dispatch.downstreamKey(), "duplicate", 1);
        documents.execute(dispatch);
        assertEquals(2, assertInstanceOf(Lookup.Ambiguous.class, documents.lookup(dispatch)).objectIds().size());
    }

    @Test
    void droppedResponseAfterCommitIsUnknownAndTheDocumentExists() {
        Attempt dispatch = invoice();
        control.arm("1c", dispatch.downstreamKey(), "drop_response_after_commit", 1);
        assertEquals("connection_lost", assertInstanceOf(Outcome.Unknown.class, documents.execute(dispatch)).errorCode());
        assertEquals(1, control.effects("1c", dispatch.downstreamKey()).size());
    }

    @Test
    void resetBeforeCommitIsAlsoUnknownBecauseTheCallerCannotTellTheDifference() {
        Attempt dispatch = invoice();
        control.arm("1c", dispatch.downstreamKey(), "reset_before_commit", 1);
        assertInstanceOf(Outcome.Unknown.class, documents.execute(dispatch));
        assertInstanceOf(Lookup.Absent.class, documents.lookup(dispatch));
    }

    @Test
    void serverAndProxyErrorsAreUnknown() {
        for (int status : List.of(500, 502, 503, 504)) {
            Attempt dispatch = invoice();
            control.armStatus("1c", dispatch.downstreamKey(), status, 1);
            Outcome.Unknown unknown = assertInstanceOf(Outcome.Unknown.class, documents.execute(dispatch), "HTTP " + status);
            assertEquals(status, unknown.httpStatus());
        }
    }

    @Test
    void responseTimeoutIsUnknown() {
        Attempt dispatch = invoice();
        control.armDelay("1c", dispatch.downstreamKey(), 1_500); // beyond the 700 ms read timeout of these settings
        assertEquals("response_timeout", assertInstanceOf(Outcome.Unknown.class, documents.execute(dispatch)).errorCode());
    }

    @Test
    void badRequestIsRejectedWithTheODataCodeOnly() {
        Attempt dispatch = invoice();
        control.armStatus("1c", dispatch.downstreamKey(), 400, 1);
        Outcome.Rejected rejected = assertInstanceOf(Outcome.Rejected.class, documents.execute(dispatch));
        assertEquals("target_rejected", rejected.errorCode());
        assertEquals("1C answered HTTP 400 (odata.error code 0)", rejected.detail());
    }

    @Test
    void rateLimitIsTransient() {
        Attempt dispatch = invoice();
        control.armStatus("1c", dispatch.downstreamKey(), 429, 1);
        assertInstanceOf(Outcome.Transient.class, documents.execute(dispatch));
    }

    @Test
    void refusedConnectionIsTransientBecauseNothingWasSent() throws Exception {
        OneCDocuments down = new OneCDocuments(settings("http://127.0.0.1:" + closedPort() + "/1c/demo/odata/standard.odata",
                Simulators.ONE_C_PASSWORD));
        assertEquals("connect_refused", assertInstanceOf(Outcome.Transient.class, down.execute(invoice())).errorCode());
        assertEquals("connect_refused", assertInstanceOf(Lookup.Unavailable.class, down.lookup(invoice())).errorCode());
    }

    @Test
    void wrongCredentialsAreRejected() {
        OneCDocuments wrong = new OneCDocuments(settings(simulators.oneCUrl(), "not-the-password"));
        Attempt dispatch = invoice();
        assertEquals("target_auth_failed", assertInstanceOf(Outcome.Rejected.class, wrong.execute(dispatch)).errorCode());
        assertEquals(0, control.creates("1c", dispatch.downstreamKey()));
    }

    @Test
    void resolvesTheCounterpartyByInn() {
        Attempt dispatch = invoice(Json.createObjectBuilder(payload()).add("counterparty_inn", "7707083893").build());
        assertInstanceOf(Outcome.Succeeded.class, documents.execute(dispatch));
    }

    @Test
    void refusesAnUnknownOrAmbiguousInnWithoutCreatingAnything() {
        for (String inn : List.of("1234567890", "5001000001")) {
            Attempt dispatch = invoice(Json.createObjectBuilder(payload()).add("counterparty_inn", inn).build());
            assertEquals("counterparty_not_resolved", assertInstanceOf(Outcome.Rejected.class, documents.execute(dispatch)).errorCode());
            assertEquals(0, control.creates("1c", dispatch.downstreamKey()), inn);
        }
    }

    @Test
    void refusesACurrencyWithNoConfiguredReferenceWithoutCalling() {
        Attempt dispatch = invoice(Json.createObjectBuilder(payload()).add("currency", "JPY").build());
        assertEquals("currency_not_configured", assertInstanceOf(Outcome.Rejected.class, documents.execute(dispatch)).errorCode());
        assertEquals(0, control.creates("1c", dispatch.downstreamKey()));
    }

    private static Attempt invoice() {
        return invoice(payload());
    }

    private static Attempt invoice(JsonObject payload) {
        return new Attempt("test:invoice.create:" + UUID.randomUUID() + ":v1", "invoice.create", 1, payload, Instant.now(), null, null);
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
