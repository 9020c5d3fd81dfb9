package dev.toolgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/** A client that takes only an origin (Bitrix24's JS SDK) reaches the same system with the real paths. */
class OwnOriginTest {

    @Test
    void servesEachSystemAtItsOwnOriginWithTheRealPathsAndOneState() throws Exception {
        try (Simulators simulators = Simulators.start(0, Map.of())) {
            HttpClient http = HttpClient.newHttpClient();
            String body = "{\"fields\":{\"TITLE\":\"Сделка\",\"ORIGIN_ID\":\"origin-test\"}}";
            HttpResponse<String> added = http.send(HttpRequest.newBuilder(URI.create(simulators.origin("bitrix24") + "/rest/"
                    + Simulators.BITRIX24_USER + "/" + Simulators.BITRIX24_SECRET + "/crm.deal.add.json"))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, added.statusCode(), added.body());
            assertEquals(1, new SimulatorClient(simulators.baseUrl()).effects("bitrix24", "origin-test").size(),
                    "the shared port and the own origin are one portal");

            HttpResponse<String> wrongSecret = http.send(HttpRequest.newBuilder(URI.create(simulators.origin("bitrix24")
                    + "/rest/1/not-the-secret/crm.deal.add")).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, wrongSecret.statusCode());

            HttpResponse<String> unauthorized = http.send(HttpRequest.newBuilder(URI.create(simulators.origin("yookassa") + "/v3/payments"))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, unauthorized.statusCode(), "YooKassa without Basic credentials");
        }
    }
}
