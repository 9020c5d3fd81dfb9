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
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.Canonicalizer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Base64;
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
    void looksUpSeveralInvoicesInOneRequestEachAnsweredAsItsOwnLookUpWouldBe() {
        Attempt one = invoice();
        Attempt doubled = invoice();
        Attempt absent = invoice();
        Attempt quoted = new Attempt("test:invoice.create:o'brien&co+1 or x:" + UUID.randomUUID(), "invoice.create", 1, payload(), Instant.now(), null, null);
        String first = ((Outcome.Succeeded) documents.execute(one)).objectId();
        control.arm("1c", doubled.downstreamKey(), "duplicate", 1);
        documents.execute(doubled);
        String fourth = ((Outcome.Succeeded) documents.execute(quoted)).objectId();

        List<Lookup> answers = documents.lookupAll(List.of(one, doubled, absent, quoted));

        assertEquals(first, assertInstanceOf(Lookup.Found.class, answers.get(0)).objectId());
        assertEquals("0000-", assertInstanceOf(Lookup.Found.class, answers.get(0)).result().getString("number").substring(0, 5));
        assertEquals(2, assertInstanceOf(Lookup.Ambiguous.class, answers.get(1)).objectIds().size());
        assertInstanceOf(Lookup.Absent.class, answers.get(2));
        assertEquals(fourth, assertInstanceOf(Lookup.Found.class, answers.get(3)).objectId());
        for (Attempt each : List.of(one, doubled, absent, quoted)) {
            assertEquals(1, control.lookups("1c", each.downstreamKey()), "each key asked once");
        }
    }

    @Test
    void aSharedLookUpThatCannotBeAnsweredNowLeavesEveryKeyUnavailable() {
        Attempt one = invoice();
        Attempt two = invoice();
        documents.execute(one);
        for (int status : List.of(429, 401)) {
            control.armStatus("1c", one.downstreamKey(), "GET", status, 1); // the request carries both keys: both answers are its
            assertEquals(List.of(new Lookup.Unavailable("target_http_" + status), new Lookup.Unavailable("target_http_" + status)),
                    documents.lookupAll(List.of(one, two)), "HTTP " + status);
        }
        control.armDelay("1c", two.downstreamKey(), 3_000);
        assertEquals(List.of(new Lookup.Unavailable("response_timeout"), new Lookup.Unavailable("response_timeout")),
                documents.lookupAll(List.of(one, two)));
        assertEquals(3, control.lookups("1c", two.downstreamKey()), "never asked again alone");
    }

    @Test
    void aSharedLookUpAnsweredWithAnErrorOrAnUnreadableListIsAskedKeyByKey() {
        Attempt one = invoice();
        Attempt two = invoice();
        String created = ((Outcome.Succeeded) documents.execute(one)).objectId();
        String shared = two.downstreamKey() + "' or "; // only the request that asks for both
        for (int status : List.of(400, 404, 414, 500, 503)) { // IIS answers a query string over its limit with 404.15
            control.armStatus("1c", shared, "GET", status, 1);
            List<Lookup> answers = documents.lookupAll(List.of(two, one));
            assertInstanceOf(Lookup.Absent.class, answers.get(0), "HTTP " + status);
            assertEquals(created, assertInstanceOf(Lookup.Found.class, answers.get(1), "HTTP " + status).objectId());
        }
        control.arm("1c", shared, "GET", "wrong_shape", 1, 0);
        List<Lookup> answers = documents.lookupAll(List.of(two, one));
        assertInstanceOf(Lookup.Absent.class, answers.get(0), "wrong shape");
        assertEquals(created, assertInstanceOf(Lookup.Found.class, answers.get(1), "wrong shape").objectId());
        assertEquals(12, control.lookups("1c", two.downstreamKey()), "each shared request, then the key alone");
    }

    @Test
    void sharedLookUpsStayWithinTheBatchSizeAndTheQueryLength() {
        OneCDocuments pairs = new OneCDocuments(settings(simulators.oneCUrl(), Simulators.ONE_C_PASSWORD, 2));
        List<Attempt> five = List.of(invoice(), invoice(), invoice(), invoice(), invoice());
        control.armStatus("1c", five.get(2).downstreamKey(), "GET", 429, 1);
        List<Lookup> answers = pairs.lookupAll(five);
        assertEquals(List.of(new Lookup.Absent(), new Lookup.Absent(), new Lookup.Unavailable("target_http_429"),
                new Lookup.Unavailable("target_http_429"), new Lookup.Absent()), answers, "pairs: the third key shares its request with the fourth only");

        String padding = "x".repeat(OneCKeyLookups.MAX_QUERY / 2);
        List<Attempt> long3 = List.of(invoice(padding + 1), invoice(padding + 2), invoice(padding + 3));
        control.armStatus("1c", long3.get(1).downstreamKey(), "GET", 429, 1);
        answers = documents.lookupAll(long3);
        assertEquals(List.of(new Lookup.Absent(), new Lookup.Unavailable("target_http_429"), new Lookup.Absent()), answers,
                "keys whose conditions do not fit one query string together are asked apart");
    }

    @Test
    void onlyInvoicesAreLookedUpTogether() {
        String ref = createdInvoice();
        Attempt cancel = cancellation(ref, "r");
        Attempt post = posting(createdInvoice());
        assertEquals(OneCSettings.LOOKUP_BATCH, documents.lookupBatch("invoice.create"));
        assertEquals(1, documents.lookupBatch("invoice.post"));
        assertEquals(1, documents.lookupBatch("invoice.cancel"));
        assertEquals(List.of(new Lookup.Absent(), new Lookup.Absent()), documents.lookupAll(List.of(cancel, post)));
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
        control.armDelay("1c", dispatch.downstreamKey(), 3_000); // beyond the 2 s read timeout of these settings
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

    @Test
    void postsAnExistingInvoiceOnceAndFindsItByItsPostedFlag() {
        String ref = createdInvoice();
        Attempt post = posting(ref);
        Outcome.Succeeded posted = assertInstanceOf(Outcome.Succeeded.class, documents.execute(post));
        assertEquals(ref, posted.objectId());
        assertEquals(true, posted.result().getBoolean("posted"));
        assertTrue(posted.result().getString("number").startsWith("0000-"), posted.result().toString());
        Lookup.Found found = assertInstanceOf(Lookup.Found.class, documents.lookup(post));
        assertEquals(ref, found.objectId());
        assertEquals(posted.result(), found.result());
        assertEquals(new SimulatorClient.StateCount(1, 0), control.postings(ref));
    }

    @Test
    void reportsAnInvoiceNotYetPostedAsAbsentSoPostingItIsSafe() {
        assertInstanceOf(Lookup.Absent.class, documents.lookup(posting(createdInvoice())));
    }

    @Test
    void refusesToPostAnInvoiceThatDoesNotExist() {
        String ref = UUID.randomUUID().toString();
        Attempt post = posting(ref);
        Outcome.Rejected rejected = assertInstanceOf(Outcome.Rejected.class, documents.execute(post));
        assertEquals("invoice_not_found", rejected.errorCode(), "found out by the look-up every attempt makes first: nothing is sent");
        assertEquals("invoice_not_found", assertInstanceOf(Lookup.Failed.class, documents.lookup(post)).errorCode());
    }

    @Test
    void aPostingWhoseAnswerIsLostOrFailsAfterCommitIsUnknownAndTheLookUpFindsItPosted() {
        for (String fault : List.of("drop_response_after_commit", "status_after_commit")) {
            String ref = createdInvoice();
            Attempt post = posting(ref);
            if (fault.equals("drop_response_after_commit")) {
                control.arm("1c", "/Post", fault, 1);
            } else {
                control.armStatusAfterCommit("1c", "/Post", 500);
            }
            assertInstanceOf(Outcome.Unknown.class, documents.execute(post), fault);
            assertEquals(true, assertInstanceOf(Lookup.Found.class, documents.lookup(post), fault).result().getBoolean("posted"));
            assertEquals(new SimulatorClient.StateCount(1, 0), control.postings(ref), fault);
        }
    }

    @Test
    void aLaterAttemptFindsTheInvoicePostedAndNeverPostsItAgain() {
        String ref = createdInvoice();
        Attempt first = posting(ref);
        control.arm("1c", "guid'" + ref + "')/Post", "drop_response_after_commit", 1);
        assertInstanceOf(Outcome.Unknown.class, documents.execute(first));
        Outcome.Succeeded adopted = assertInstanceOf(Outcome.Succeeded.class, documents.execute(again(first)));
        assertEquals(ref, adopted.objectId());
        assertEquals(new SimulatorClient.StateCount(1, 0), control.postings(ref), "looked up, found posted, not re-posted");
    }

    @Test
    void serverAndProxyErrorsBeforeThePostingAreUnknownAndTheInvoiceStaysUnposted() {
        for (int status : List.of(500, 502, 503, 504)) {
            String ref = createdInvoice();
            Attempt post = posting(ref);
            control.armStatus("1c", "/Post", status, 1);
            assertEquals(status, assertInstanceOf(Outcome.Unknown.class, documents.execute(post), "HTTP " + status).httpStatus());
            assertInstanceOf(Lookup.Absent.class, documents.lookup(post), "HTTP " + status);
            assertEquals(new SimulatorClient.StateCount(0, 0), control.postings(ref));
        }
    }

    @Test
    void aRateLimitedPostingIsTransientAndATimedOutOneUnknown() {
        String ref = createdInvoice();
        control.armStatus("1c", "/Post", 429, 1);
        assertInstanceOf(Outcome.Transient.class, documents.execute(posting(ref)));
        control.armDelay("1c", "/Post", 3_000); // beyond the 2 s read timeout of these settings
        assertEquals("response_timeout", assertInstanceOf(Outcome.Unknown.class, documents.execute(posting(ref))).errorCode());
    }

    @Test
    void aPostingAnswerThatDoesNotShowTheInvoicePostedIsUnknown() {
        String ref = createdInvoice();
        control.arm("1c", "/Post", "wrong_shape", 1);
        assertEquals("unreadable_response", assertInstanceOf(Outcome.Unknown.class, documents.execute(posting(ref))).errorCode());
        assertInstanceOf(Lookup.Absent.class, documents.lookup(posting(ref)));
    }

    @Test
    void createWithThePostFlagStillPostsOnce() {
        Attempt dispatch = invoice(Json.createObjectBuilder(payload()).add("post", true).build());
        Outcome.Succeeded created = assertInstanceOf(Outcome.Succeeded.class, documents.execute(dispatch));
        assertEquals(new SimulatorClient.StateCount(1, 0), control.postings(created.objectId()));
    }

    @Test
    void cancelsAnInvoiceWithAStatusRecordAndFindsIt() {
        Attempt created = invoice();
        String ref = ((Outcome.Succeeded) documents.execute(created)).objectId();
        Attempt cancel = cancellation(ref, "заказ отменён");
        Outcome.Succeeded cancelled = assertInstanceOf(Outcome.Succeeded.class, documents.execute(cancel));
        assertEquals(ref, cancelled.objectId());
        assertEquals("cancelled", cancelled.result().getString("status"));
        Lookup.Found found = assertInstanceOf(Lookup.Found.class, documents.lookup(cancel));
        assertEquals(ref, found.objectId());
        assertEquals("cancelled", found.result().getString("status"));
        assertEquals(new SimulatorClient.StateCount(1, 0), control.cancellations(ref));
        JsonObject record = odata("GET", statusRecord(ref), null).body();
        assertEquals("Toolgate: заказ отменён", record.getString("Комментарий"));
        assertEquals(Simulators.oneCOrganizationKey(), record.getString("Организация_Key"));
        assertEquals(List.of(ref), control.effects("1c", created.downstreamKey()), "the invoice is still there");
        assertEquals(false, odata("GET", "Document_СчетНаОплатуПокупателю(guid'" + ref + "')", null).body().getBoolean("DeletionMark"));
    }

    @Test
    void reportsAnInvoiceWithoutAStatusRecordOrWithAnotherStatusAsAbsent() {
        String ref = createdInvoice();
        assertInstanceOf(Lookup.Absent.class, documents.lookup(cancellation(ref, "r")));
        assertEquals(201, odata("POST", OneCDocuments.STATUS_REGISTER, statusBody(ref, "Оплачен")).status());
        assertInstanceOf(Lookup.Absent.class, documents.lookup(cancellation(ref, "r")));
        assertInstanceOf(Outcome.Succeeded.class, documents.execute(cancellation(ref, "r")), "the record is replaced");
        assertEquals("Отменен", odata("GET", statusRecord(ref), null).body().getString("Статус"));
    }

    @Test
    void refusesToCancelAnInvoiceThatDoesNotExist() {
        String ref = UUID.randomUUID().toString();
        Outcome.Rejected rejected = assertInstanceOf(Outcome.Rejected.class, documents.execute(cancellation(ref, "r")));
        assertEquals(400, rejected.httpStatus());
        assertEquals(new SimulatorClient.StateCount(0, 0), control.cancellations(ref));
        assertInstanceOf(Lookup.Absent.class, documents.lookup(cancellation(ref, "r")));
    }

    @Test
    void aCancellationWhoseAnswerIsLostOrFailsAfterCommitIsUnknownAndTheLookUpFindsTheRecord() {
        for (String fault : List.of("drop_response_after_commit", "status_after_commit")) {
            String ref = createdInvoice();
            Attempt cancel = cancellation(ref, "r");
            if (fault.equals("drop_response_after_commit")) {
                control.arm("1c", "InformationRegister_", "POST", fault, 1, 0);
            } else {
                control.armStatusAfterCommit("1c", "InformationRegister_", "POST", 500);
            }
            assertInstanceOf(Outcome.Unknown.class, documents.execute(cancel), fault);
            assertEquals(ref, assertInstanceOf(Lookup.Found.class, documents.lookup(cancel), fault).objectId());
            assertEquals(new SimulatorClient.StateCount(1, 0), control.cancellations(ref), fault);
        }
    }

    @Test
    void aLaterAttemptFindsTheCancellationAndDoesNotWriteItAgain() {
        String ref = createdInvoice();
        Attempt first = cancellation(ref, "r");
        control.arm("1c", "InformationRegister_", "POST", "drop_response_after_commit", 1, 0);
        assertInstanceOf(Outcome.Unknown.class, documents.execute(first));
        assertEquals(ref, assertInstanceOf(Outcome.Succeeded.class, documents.execute(again(first))).objectId());
        assertEquals(new SimulatorClient.StateCount(1, 0), control.cancellations(ref));
    }

    @Test
    void cancellingAnInvoiceAlreadyCancelledWritesNothing() {
        String ref = createdInvoice();
        documents.execute(cancellation(ref, "первая"));
        assertInstanceOf(Outcome.Succeeded.class, documents.execute(cancellation(ref, "вторая")), "another key, attempt 1: looked first");
        assertEquals(new SimulatorClient.StateCount(1, 0), control.cancellations(ref), "never written again");
        assertEquals("Toolgate: первая", odata("GET", statusRecord(ref), null).body().getString("Комментарий"), "one record, the first");
    }

    @Test
    void aRefusedWriteOfACancellationThatIsThereIsReadAgainAndSucceeds() {
        String ref = createdInvoice();
        // the record is written, and the answer is a refusal (an infobase that will not overwrite): read again, it is there
        control.armStatusAfterCommit("1c", "InformationRegister_", "POST", 409);
        assertEquals(ref, assertInstanceOf(Outcome.Succeeded.class, documents.execute(cancellation(ref, "r"))).objectId());
        assertEquals(new SimulatorClient.StateCount(1, 0), control.cancellations(ref));
    }

    @Test
    void serverErrorsBeforeTheWriteAreUnknownRateLimitsTransientAndTimeoutsUnknown() {
        String ref = createdInvoice();
        for (int status : List.of(500, 503)) {
            control.armStatus("1c", "InformationRegister_", "POST", status, 1); // the write, not the look-up before it
            assertEquals(status, assertInstanceOf(Outcome.Unknown.class, documents.execute(cancellation(ref, "r"))).httpStatus());
        }
        assertInstanceOf(Lookup.Absent.class, documents.lookup(cancellation(ref, "r")));
        control.armStatus("1c", "InformationRegister_", "POST", 429, 1);
        assertInstanceOf(Outcome.Transient.class, documents.execute(cancellation(ref, "r")));
        assertEquals(new SimulatorClient.StateCount(0, 0), control.cancellations(ref));
        control.arm("1c", "InformationRegister_", "POST", "delay", 1, 3_000);
        assertEquals("response_timeout", assertInstanceOf(Outcome.Unknown.class, documents.execute(cancellation(ref, "r"))).errorCode());
    }

    @Test
    void aWriteAnswerThatDoesNotShowTheRecordIsUnknown() {
        String ref = createdInvoice();
        control.arm("1c", "InformationRegister_", "POST", "wrong_shape", 1, 0);
        assertEquals("unreadable_response", assertInstanceOf(Outcome.Unknown.class, documents.execute(cancellation(ref, "r"))).errorCode());
        assertInstanceOf(Lookup.Absent.class, documents.lookup(cancellation(ref, "r")));
    }

    @Test
    void theSimulatedInfobaseNeverDeletesADocumentNorChangesItsDeletionMark() {
        Attempt created = invoice();
        String ref = ((Outcome.Succeeded) documents.execute(created)).objectId();
        String entity = "Document_СчетНаОплатуПокупателю(guid'" + ref + "')";
        assertEquals(405, odata("DELETE", entity, null).status());
        assertEquals(405, odata("PATCH", entity, "{\"DeletionMark\":true}").status());
        assertEquals(400, odata("POST", "Document_СчетНаОплатуПокупателю", "{\"DeletionMark\":true}").status());
        assertEquals(List.of(ref), control.effects("1c", created.downstreamKey()));
        assertEquals(false, odata("GET", entity, null).body().getBoolean("DeletionMark"));
    }

    private static String createdInvoice() {
        return ((Outcome.Succeeded) documents.execute(invoice())).objectId();
    }

    /** What a process sends: a payload the catalog accepts, built from the invoice's Ref_Key. */
    private static Attempt posting(String ref) {
        return process("invoice.post", Json.createObjectBuilder().add("invoice_id", ref).build());
    }

    private static Attempt cancellation(String ref, String reason) {
        return process("invoice.cancel", Json.createObjectBuilder().add("invoice_id", ref).add("reason", reason).build());
    }

    private static Attempt process(String operation, JsonObject payload) {
        JsonObject canonical = Canonicalizer.canonicalize(new AgentCommand(operation, "1c", payload)).payload();
        return new Attempt("acme/test:" + operation + ":" + UUID.randomUUID() + ":v1", operation, 1, canonical, Instant.now(), null, null);
    }

    private static Attempt again(Attempt first) {
        return new Attempt(first.downstreamKey(), first.operation(), first.attempt() + 1, first.payload(), first.createdAt(), null, null);
    }

    private static String statusRecord(String ref) {
        return OneCDocuments.STATUS_REGISTER + "(Документ='" + ref + "', Документ_Type='StandardODATA.Document_СчетНаОплатуПокупателю')";
    }

    private static String statusBody(String ref, String status) {
        return Json.createObjectBuilder().add("Документ", ref).add("Документ_Type", "StandardODATA.Document_СчетНаОплатуПокупателю")
                .add("Организация_Key", Simulators.oneCOrganizationKey()).add("Статус", status).build().toString();
    }

    /** One request to the infobase's OData, as another client of it would make it (plain HTTP, the demo user). */
    private static Answer odata(String method, String resource, String body) {
        try {
            String path = URLEncoder.encode(resource, StandardCharsets.UTF_8).replace("+", "%20")
                    .replace("%28", "(").replace("%29", ")").replace("%27", "'").replace("%3D", "=").replace("%2C", ",");
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Simulators.oneCUrl(simulators.baseUrl()) + "/" + path + "?$format=json"))
                    .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                            (Simulators.ONE_C_USER + ":" + Simulators.ONE_C_PASSWORD).getBytes(StandardCharsets.UTF_8)))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            HttpResponse<String> answer = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonObject json = answer.body().isEmpty() ? null : Json.createReader(new StringReader(answer.body())).readObject();
            return new Answer(answer.statusCode(), json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private record Answer(int status, JsonObject body) {
    }

    private static Attempt invoice() {
        return invoice(payload());
    }

    private static Attempt invoice(JsonObject payload) {
        return new Attempt("test:invoice.create:" + UUID.randomUUID() + ":v1", "invoice.create", 1, payload, Instant.now(), null, null);
    }

    private static Attempt invoice(String keyPart) {
        return new Attempt("test:invoice.create:" + keyPart + ":" + UUID.randomUUID(), "invoice.create", 1, payload(), Instant.now(), null, null);
    }

    private static JsonObject payload() {
        return Json.createObjectBuilder().add("order_id", "order-demo-1").add("amount_minor", 125000).add("currency", "RUB").build();
    }

    private static OneCSettings settings(String url, String password) {
        return settings(url, password, OneCSettings.LOOKUP_BATCH);
    }

    private static OneCSettings settings(String url, String password, int lookupBatch) {
        return new OneCSettings(URI.create(url + "/"), Simulators.ONE_C_USER, password, "Document_СчетНаОплатуПокупателю",
                Simulators.ONE_C_KEY_REQUISITE, Simulators.oneCOrganizationKey(),
                OneCSettings.currencies(Simulators.oneCCurrencyKeys()), ZoneId.of("Europe/Moscow"),
                Duration.ofMillis(1_000), Duration.ofMillis(2_000), SimulatorTrust.of(simulators, "1c"), lookupBatch);
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
