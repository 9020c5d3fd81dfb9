package dev.toolgate.targets.bitrix24;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

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
import jakarta.json.JsonObjectBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
    void looksUpSeveralDealsInOneRequestEachAnsweredAsItsOwnLookUpWouldBe() {
        Attempt one = deal(1);
        Attempt doubled = deal(1);
        Attempt absent = deal(1);
        String first = ((Outcome.Succeeded) deals.execute(one)).objectId();
        control.arm("bitrix24", doubled.downstreamKey(), "duplicate", 1);
        deals.execute(doubled);
        portal("crm.deal.add", "{\"fields\":{\"TITLE\":\"их сделка\",\"ORIGINATOR_ID\":\"their-shop\",\"ORIGIN_ID\":\""
                + absent.downstreamKey() + "\"}}"); // another source's deal with the same ORIGIN_ID is not ours

        List<Lookup> answers = deals.lookupAll(List.of(one, doubled, absent));

        assertEquals(first, assertInstanceOf(Lookup.Found.class, answers.get(0)).objectId());
        assertEquals(2, assertInstanceOf(Lookup.Ambiguous.class, answers.get(1)).objectIds().size());
        assertInstanceOf(Lookup.Absent.class, answers.get(2));
        for (Attempt each : List.of(one, doubled, absent)) {
            assertEquals(1, control.lookups("bitrix24", each.downstreamKey()), "each key asked once");
        }
        assertEquals(deals.lookup(one), answers.get(0));
        assertEquals(deals.lookup(absent), answers.get(2));
    }

    @Test
    void aSharedLookUpThatCannotBeAnsweredNowLeavesEveryKeyUnavailable() {
        Attempt one = deal(1);
        Attempt two = deal(1);
        deals.execute(one);
        for (int status : List.of(503, 429, 401)) { // QUERY_LIMIT_EXCEEDED, OPERATION_TIME_LIMIT, expired_token
            control.armStatus("bitrix24", one.downstreamKey(), status, 1); // the request carries both keys: both answers are its
            assertEquals(List.of(new Lookup.Unavailable("target_http_" + status), new Lookup.Unavailable("target_http_" + status)),
                    deals.lookupAll(List.of(one, two)), "HTTP " + status);
        }
        control.armDelay("bitrix24", two.downstreamKey(), 3_000);
        assertEquals(List.of(new Lookup.Unavailable("target_unreachable"), new Lookup.Unavailable("target_unreachable")),
                deals.lookupAll(List.of(one, two)));
        assertEquals(4, control.lookups("bitrix24", two.downstreamKey()), "never asked again alone");
    }

    @Test
    void aSharedLookUpAnsweredWithAnErrorOrAnUnreadablePageIsAskedKeyByKey() {
        Attempt one = deal(1);
        Attempt two = deal(1);
        String created = ((Outcome.Succeeded) deals.execute(one)).objectId();
        for (int status : List.of(400, 403, 500)) { // only the request that asks for both carries the IN prefix
            control.armStatus("bitrix24", "\"@ORIGIN_ID\"", status, 1);
            List<Lookup> answers = deals.lookupAll(List.of(two, one));
            assertInstanceOf(Lookup.Absent.class, answers.get(0), "HTTP " + status);
            assertEquals(created, assertInstanceOf(Lookup.Found.class, answers.get(1), "HTTP " + status).objectId());
        }
        control.arm("bitrix24", "\"@ORIGIN_ID\"", "POST", "wrong_shape", 1, 0);
        List<Lookup> answers = deals.lookupAll(List.of(two, one));
        assertInstanceOf(Lookup.Absent.class, answers.get(0), "wrong shape");
        assertEquals(created, assertInstanceOf(Lookup.Found.class, answers.get(1), "wrong shape").objectId());
        assertEquals(8, control.lookups("bitrix24", two.downstreamKey()), "each shared request, then the key alone");
    }

    @Test
    void keysWhoseDealsDoNotFitOnePageAreAskedKeyByKey() {
        Bitrix24Deals wide = new Bitrix24Deals(settings(simulators.bitrix24Url(), Bitrix24Settings.PAGE));
        List<Attempt> doubled = new ArrayList<>();
        for (int i = 0; i < Bitrix24Settings.PAGE / 2 + 1; i++) { // two deals each: one more than a page holds
            Attempt each = deal(1);
            control.arm("bitrix24", each.downstreamKey(), "duplicate", 1);
            wide.execute(each);
            doubled.add(each);
        }
        List<Lookup> answers = wide.lookupAll(doubled);
        for (int i = 0; i < doubled.size(); i++) {
            assertEquals(2, assertInstanceOf(Lookup.Ambiguous.class, answers.get(i), "key " + i).objectIds().size());
            assertEquals(2, control.lookups("bitrix24", doubled.get(i).downstreamKey()), "the shared page, then the key alone");
        }
    }

    @Test
    void sharedLookUpsStayWithinTheBatchSizeAndOnlyDealCreatesShareThem() {
        Bitrix24Deals pairs = new Bitrix24Deals(settings(simulators.bitrix24Url(), 2));
        List<Attempt> five = List.of(deal(1), deal(1), deal(1), deal(1), deal(1));
        control.armStatus("bitrix24", five.get(2).downstreamKey(), 503, 1);
        assertEquals(List.of(new Lookup.Absent(), new Lookup.Absent(), new Lookup.Unavailable("target_http_503"),
                new Lookup.Unavailable("target_http_503"), new Lookup.Absent()), pairs.lookupAll(five),
                "pairs: the third key shares its request with the fourth only");
        assertEquals(Bitrix24Settings.LOOKUP_BATCH, deals.lookupBatch("crm.deal.create"));
        assertEquals(1, deals.lookupBatch("crm.deal.lose"));
        Attempt lose = lose(createdDeal(), null);
        assertEquals(List.of(new Lookup.Absent(), new Lookup.Absent()), deals.lookupAll(List.of(lose, deal(1))));
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

    @Test
    void losesADealByMovingItToTheLostStageWithTheReasonInItsComments() {
        String id = createdDeal();
        Attempt lose = lose(id, "клиент отказался");
        Outcome.Succeeded lost = assertInstanceOf(Outcome.Succeeded.class, deals.execute(lose));
        assertEquals(id, lost.objectId());
        assertEquals("LOSE", lost.result().getString("stage_id"));
        assertEquals(id, assertInstanceOf(Lookup.Found.class, deals.lookup(lose)).objectId());
        assertEquals(new SimulatorClient.StateCount(1, 0), control.losses(id));
        JsonObject deal = read(id);
        assertEquals("LOSE", deal.getString("STAGE_ID"));
        assertEquals("Toolgate: клиент отказался", deal.getString("COMMENTS"));
        assertEquals(List.of(id), control.effects("bitrix24", deal.getString("ORIGIN_ID")), "lost, never deleted");
    }

    @Test
    void addsTheReasonToCommentsTheDealHadAndLosesWithoutOne() {
        String id = createdDeal();
        portal("crm.deal.update", "{\"id\":" + id + ",\"fields\":{\"COMMENTS\":\"звонок 1\"}}");
        deals.execute(lose(id, "причина"));
        assertEquals("звонок 1\nToolgate: причина", read(id).getString("COMMENTS"), "added, the comments kept");
        String other = createdDeal();
        assertInstanceOf(Outcome.Succeeded.class, deals.execute(lose(other, null)));
        assertEquals("LOSE", read(other).getString("STAGE_ID"));
        assertEquals(false, read(other).containsKey("COMMENTS"), "no reason, no comment");
    }

    @Test
    void reportsADealInAnotherStageAsAbsent() {
        assertInstanceOf(Lookup.Absent.class, deals.lookup(lose(createdDeal(), "r")));
    }

    @Test
    void refusesToLoseADealThatDoesNotExist() {
        Attempt lose = lose("999999", "r");
        assertEquals("deal_not_found", assertInstanceOf(Outcome.Rejected.class, deals.execute(lose)).errorCode());
        assertEquals("deal_not_found", assertInstanceOf(Lookup.Failed.class, deals.lookup(lose)).errorCode());
        assertEquals(new SimulatorClient.StateCount(0, 0), control.losses("999999"));
    }

    @Test
    void aLostAnswerOrAServerErrorAfterTheUpdateIsUnknownAndTheLookUpFindsTheDealLost() {
        for (String fault : List.of("drop_response_after_commit", "status_after_commit")) {
            String id = createdDeal();
            Attempt lose = lose(id, "r");
            if (fault.equals("drop_response_after_commit")) {
                control.arm("bitrix24", "crm.deal.update", fault, 1);
            } else {
                control.armStatusAfterCommit("bitrix24", "crm.deal.update", 500);
            }
            assertInstanceOf(Outcome.Unknown.class, deals.execute(lose), fault);
            assertEquals(id, assertInstanceOf(Lookup.Found.class, deals.lookup(lose), fault).objectId());
            assertEquals(new SimulatorClient.StateCount(1, 0), control.losses(id), fault);
        }
    }

    @Test
    void aLaterAttemptFindsTheDealLostAndDoesNotUpdateItAgain() {
        String id = createdDeal();
        Attempt first = lose(id, "r");
        control.arm("bitrix24", "crm.deal.update", "drop_response_after_commit", 1);
        assertInstanceOf(Outcome.Unknown.class, deals.execute(first));
        Attempt second = new Attempt(first.downstreamKey(), first.operation(), 2, first.payload(), first.createdAt(), null, null);
        assertEquals(id, assertInstanceOf(Outcome.Succeeded.class, deals.execute(second)).objectId());
        assertEquals(new SimulatorClient.StateCount(1, 0), control.losses(id), "read, found lost, not updated twice");
        assertEquals("Toolgate: r", read(id).getString("COMMENTS"), "the reason once");
    }

    @Test
    void aServerErrorBeforeTheUpdateIsUnknownAndNothingChanged() {
        String id = createdDeal();
        Attempt lose = lose(id, "r");
        control.armStatus("bitrix24", "crm.deal.update", 500, 1);
        assertEquals(500, assertInstanceOf(Outcome.Unknown.class, deals.execute(lose)).httpStatus());
        assertInstanceOf(Lookup.Absent.class, deals.lookup(lose));
        assertEquals(new SimulatorClient.StateCount(0, 0), control.losses(id));
    }

    @Test
    void limitErrorsOnTheUpdateOrTheReadBeforeItAreTransient() {
        for (int status : List.of(429, 503)) {
            String id = createdDeal();
            control.armStatus("bitrix24", "crm.deal.update", status, 1);
            assertInstanceOf(Outcome.Transient.class, deals.execute(lose(id, "r")), "HTTP " + status);
            control.armStatus("bitrix24", "crm.deal.get", status, 1);
            assertInstanceOf(Outcome.Transient.class, deals.execute(lose(id, "r")), "the read, HTTP " + status);
            assertEquals(new SimulatorClient.StateCount(0, 0), control.losses(id));
        }
    }

    @Test
    void anUpdateThatTimesOutIsUnknown() {
        String id = createdDeal();
        control.arm("bitrix24", "crm.deal.update", "POST", "delay", 1, 3_000); // beyond the 2 s read timeout
        assertEquals("response_timeout", assertInstanceOf(Outcome.Unknown.class, deals.execute(lose(id, "r"))).errorCode());
    }

    @Test
    void aYesThatCannotBeReadIsUnknown() {
        String id = createdDeal();
        control.arm("bitrix24", "crm.deal.update", "wrong_shape", 1);
        assertEquals("unreadable_response", assertInstanceOf(Outcome.Unknown.class, deals.execute(lose(id, "r"))).errorCode());
        assertInstanceOf(Lookup.Absent.class, deals.lookup(lose(id, "r")));
    }

    @Test
    void aDealAlreadyLostIsTheEffectAndIsNotUpdatedAgain() {
        String id = createdDeal();
        deals.execute(lose(id, "r"));
        assertInstanceOf(Outcome.Succeeded.class, deals.execute(lose(id, "r")), "another key, the same deal");
        assertEquals(new SimulatorClient.StateCount(1, 0), control.losses(id));
    }

    @Test
    void usesTheConfiguredLostStageOfTheDealsPipeline() {
        Bitrix24Deals pipeline = new Bitrix24Deals(new Bitrix24Settings(URI.create(simulators.bitrix24Url()), "agent-gw", "C2:LOSE",
                Duration.ofMillis(1_000), Duration.ofMillis(2_000), SimulatorTrust.of(simulators, "bitrix24"), Bitrix24Settings.LOOKUP_BATCH));
        String id = createdDeal();
        Attempt lose = lose(id, "r");
        assertEquals("C2:LOSE", assertInstanceOf(Outcome.Succeeded.class, pipeline.execute(lose)).result().getString("stage_id"));
        assertInstanceOf(Lookup.Found.class, pipeline.lookup(lose));
        assertInstanceOf(Lookup.Absent.class, deals.lookup(lose), "LOSE is another stage");
    }

    private static String createdDeal() {
        return ((Outcome.Succeeded) deals.execute(deal(1))).objectId();
    }

    /** The deal as the portal holds it, read with crm.deal.get. */
    private static JsonObject read(String id) {
        return portal("crm.deal.get", "{\"id\":\"" + id + "\"}").getJsonObject("result");
    }

    /** One call to the portal's webhook, as a person's own integration would make it. */
    private static JsonObject portal(String method, String body) {
        try {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(Simulators.bitrix24Url(simulators.baseUrl()) + method + ".json"))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            return Json.createReader(new StringReader(answer.body())).readObject();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Attempt lose(String dealId, String reason) {
        JsonObjectBuilder payload = Json.createObjectBuilder().add("deal_id", dealId);
        if (reason != null) {
            payload.add("reason", reason);
        }
        JsonObject canonical = Canonicalizer.canonicalize(new AgentCommand("crm.deal.lose", "bitrix24", payload.build())).payload();
        return new Attempt("acme/test:crm.deal.lose:" + UUID.randomUUID() + ":v1", "crm.deal.lose", 1, canonical, Instant.now(), null, null);
    }

    private static Attempt deal(int attempt) {
        return new Attempt("acme/test:crm.deal.create:" + UUID.randomUUID() + ":v1", "crm.deal.create", attempt,
                Json.createObjectBuilder().add("title", "Сделка").add("amount_minor", 990000).add("currency", "RUB").build(),
                Instant.now(), null, null);
    }

    private static Bitrix24Settings settings(String url) {
        return settings(url, Bitrix24Settings.LOOKUP_BATCH);
    }

    private static Bitrix24Settings settings(String url, int lookupBatch) {
        return new Bitrix24Settings(URI.create(url), "agent-gw", "LOSE", Duration.ofMillis(1_000), Duration.ofMillis(2_000),
                SimulatorTrust.of(simulators, "bitrix24"), lookupBatch);
    }
}
