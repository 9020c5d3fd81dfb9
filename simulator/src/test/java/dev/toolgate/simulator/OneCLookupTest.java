package dev.toolgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A look-up by the key requisite ({@code $filter=tg_OperationKey eq '…'}) answers exactly the documents that
 * carry the key, with the other conditions of the filter still applied, however many other documents the
 * infobase holds; a filter on anything else still reads them all.
 */
class OneCLookupTest {

    private static final String INVOICES = "Document_СчетНаОплатуПокупателю";
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aLookUpByTheKeyRequisiteAnswersExactlyTheDocumentsCarryingTheKey() throws Exception {
        try (Simulators simulators = Simulators.start(0, Map.of())) {
            String base = Simulators.oneCUrl(simulators.baseUrl());
            for (int i = 0; i < 200; i++) {
                create(base, "key-" + i, i % 2 == 0 ? "50.00" : "70.00");
            }
            create(base, "key-7", "90.00"); // two documents with one key: a duplicate effect a look-up must show

            assertEquals(1, invoices(base, keyIs("key-8")).size());
            JsonArray doubled = invoices(base, keyIs("key-7"));
            assertEquals(2, doubled.size(), "both documents with the key, in creation order");
            assertEquals("70.00", doubled.getJsonObject(0).getJsonNumber("СуммаДокумента").bigDecimalValue().toPlainString());
            assertEquals(0, invoices(base, keyIs("key-nobody-used")).size());
            assertEquals(0, invoices(base, keyIs("key-8") + " and Posted eq 'true'").size(), "the other conditions still hold");
            assertEquals(1, invoices(base, "Организация_Key eq '" + Simulators.oneCOrganizationKey() + "' and " + keyIs("key-9")).size());
            assertEquals(201, invoices(base, "Организация_Key eq '" + Simulators.oneCOrganizationKey() + "'").size(),
                    "a filter without the key requisite reads every document");
            assertEquals(2, new SimulatorClient(simulators.baseUrl()).effects("1c", "key-7").size());
        }
    }

    @Test
    void aLookUpOfSeveralKeysJoinedByOrAnswersTheDocumentsOfEachAndCountsALookUpForEach() throws Exception {
        try (Simulators simulators = Simulators.start(0, Map.of())) {
            String base = Simulators.oneCUrl(simulators.baseUrl());
            SimulatorClient control = new SimulatorClient(simulators.baseUrl());
            for (int i = 0; i < 50; i++) {
                create(base, "key-" + i, "50.00");
            }
            create(base, "key-7", "90.00");
            create(base, "it's key", "60.00");

            assertEquals(4, invoices(base, keyIs("key-3") + " or " + keyIs("key-7") + " or " + keyIs("key-nobody-used")
                    + " or " + keyIs("it''s key")).size(), "one each, both of the doubled key, none of the unused");
            assertEquals(1, invoices(base, "(" + keyIs("key-3") + ") or (" + keyIs("key-4") + " and Posted eq 'true')").size(),
                    "and binds within its alternative");
            assertEquals(1, invoices(base, keyIs("key-3") + " or " + keyIs("key-3")).size(), "a key asked twice answers its document once");
            assertEquals(2, invoices(base, keyIs("key-3") + " or Организация_Key eq 'nobody' or " + keyIs("key-9")).size(),
                    "an alternative without the key requisite still filters every document");
            assertEquals(2, invoices(base, "Организация_Key eq '" + Simulators.oneCOrganizationKey() + "' and ("
                    + keyIs("key-5") + " or " + keyIs("key-6") + ")").size());
            assertEquals(4, control.lookups("1c", "key-3"), "each request counted once for each key it asks for");
            assertEquals(1, control.lookups("1c", "key-nobody-used"));
            for (String malformed : List.of(keyIs("key-1") + " or", "(" + keyIs("key-1"), keyIs("key-1") + " xor " + keyIs("key-2"),
                    "tg_OperationKey eq 'unclosed")) {
                assertEquals(400, status(base, malformed), malformed);
            }
        }
    }

    private static String keyIs(String key) {
        return Simulators.ONE_C_KEY_REQUISITE + " eq '" + key + "'";
    }

    private void create(String base, String key, String amount) throws Exception {
        String body = "{\"Date\":\"2026-11-30T12:00:00\",\"Организация_Key\":\"" + Simulators.oneCOrganizationKey()
                + "\",\"СуммаДокумента\":" + amount + ",\"" + Simulators.ONE_C_KEY_REQUISITE + "\":\"" + key + "\"}";
        HttpResponse<String> created = http.send(request(base + "/" + encode(INVOICES) + "?$format=json")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
    }

    private int status(String base, String filter) throws Exception {
        return http.send(request(base + "/" + encode(INVOICES) + "?$format=json&$filter=" + encode(filter)).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private JsonArray invoices(String base, String filter) throws Exception {
        HttpResponse<String> found = http.send(request(base + "/" + encode(INVOICES) + "?$format=json&$filter=" + encode(filter))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, found.statusCode(), found.body());
        JsonObject answer = Json.createReader(new StringReader(found.body())).readObject();
        assertTrue(answer.containsKey("odata.metadata"), found.body());
        return answer.getJsonArray("value");
    }

    private static HttpRequest.Builder request(String url) {
        String auth = Base64.getEncoder().encodeToString((Simulators.ONE_C_USER + ":" + Simulators.ONE_C_PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        return HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Basic " + auth);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
