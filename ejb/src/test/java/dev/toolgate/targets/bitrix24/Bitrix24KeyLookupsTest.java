package dev.toolgate.targets.bitrix24;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.sun.net.httpserver.HttpServer;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.tls.TlsSettings;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * What the adapter makes of {@code crm.deal.list} answers the simulator does not give, from a portal played here
 * answer by answer: one that compares keys without case, as its database may, or returns a deal the request did not
 * ask for. A deal is credited to a key only when it carries that key; a look-up never says "absent" on a reading it
 * cannot attribute.
 */
class Bitrix24KeyLookupsTest {

    private HttpServer portal;
    private final List<JsonObject> asked = new CopyOnWriteArrayList<>();
    private Function<JsonObject, String> answer;
    private Bitrix24Deals deals;

    @BeforeEach
    void start() throws Exception {
        portal = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        portal.createContext("/rest/1/secret/crm.deal.list.json", exchange -> {
            JsonObject body = Json.createReader(new StringReader(new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8))).readObject();
            asked.add(body);
            byte[] bytes = answer.apply(body).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        portal.start();
        deals = new Bitrix24Deals(new Bitrix24Settings(URI.create("http://127.0.0.1:" + portal.getAddress().getPort() + "/rest/1/secret/"),
                "agent-gw", "LOSE", Duration.ofSeconds(1), Duration.ofSeconds(2), TlsSettings.from(name -> Optional.empty(), "bitrix24"),
                Bitrix24Settings.LOOKUP_BATCH));
    }

    @AfterEach
    void stop() {
        deals.close();
        portal.stop(0);
    }

    @Test
    void aDealOfAKeyThatDiffersOnlyInCaseIsAnotherKeysAndNotTakenForOurs() {
        answer = body -> page(deal("7", "agent-gw", "acme/t:crm.deal.create:ORDER-1:v1"));
        assertInstanceOf(Lookup.Absent.class, deals.lookup(create("acme/t:crm.deal.create:order-1:v1")));
    }

    @Test
    void aDealCarryingAKeyNotAskedForIsNeverReadAsAbsent() {
        answer = body -> page(deal("7", "agent-gw", "acme/t:crm.deal.create:order-1&amp;2:v1"));
        assertEquals(new Lookup.Unavailable("unreadable_response"), deals.lookup(create("acme/t:crm.deal.create:order-1&2:v1")));
        answer = body -> page(deal("8", "agent-gw", "acme/t:crm.deal.create:order-3:v1"));
        assertEquals("8", assertInstanceOf(Lookup.Found.class, deals.lookup(create("acme/t:crm.deal.create:order-3:v1"))).objectId());
    }

    @Test
    void keysThatCaseOrEscapingCouldConfuseAreAskedAloneAndTheRestTogether() {
        answer = body -> page();
        List<Attempt> attempts = List.of(create("t:k/a"), create("t:k/A"), create("t:k/b&c"), create("t:k/d"), create("t:k/e"));
        assertEquals(List.of(new Lookup.Absent(), new Lookup.Absent(), new Lookup.Absent(), new Lookup.Absent(), new Lookup.Absent()),
                deals.lookupAll(attempts));
        assertEquals(List.of("t:k/a", "t:k/A", "t:k/b&c", "[\"t:k/d\",\"t:k/e\"]"), asked.stream()
                .map(body -> body.getJsonObject("filter")).map(f -> f.containsKey("ORIGIN_ID") ? f.getString("ORIGIN_ID")
                        : f.getJsonArray("@ORIGIN_ID").toString()).toList());
    }

    @Test
    void aSharedAnswerHoldingADealOfAnotherSourceOrOfNoKeyAskedHasEachKeyAskedAlone() {
        for (JsonObject stray : List.of(deal("9", "their-shop", "t:k/d"), deal("9", "agent-gw", "t:k/z"), deal("9", "agent-gw", "T:K/D"))) {
            asked.clear();
            answer = body -> body.getJsonObject("filter").containsKey("@ORIGIN_ID") ? page(stray) : page();
            assertEquals(List.of(new Lookup.Absent(), new Lookup.Absent()), deals.lookupAll(List.of(create("t:k/d"), create("t:k/e"))),
                    stray.toString());
            assertEquals(3, asked.size(), "the shared list, then each key alone: " + stray);
        }
    }

    private static Attempt create(String key) {
        return new Attempt(key, "crm.deal.create", 2, Json.createObjectBuilder().add("title", "Сделка").add("amount_minor", 100)
                .add("currency", "RUB").build(), Instant.now(), null, null);
    }

    private static JsonObject deal(String id, String originator, String origin) {
        return Json.createObjectBuilder().add("ID", id).add("ORIGINATOR_ID", originator).add("ORIGIN_ID", origin)
                .add("STAGE_ID", "NEW").build();
    }

    private static String page(JsonObject... deals) {
        return Json.createObjectBuilder().add("result", Json.createArrayBuilder(List.of(deals))).add("total", deals.length).build().toString();
    }
}
