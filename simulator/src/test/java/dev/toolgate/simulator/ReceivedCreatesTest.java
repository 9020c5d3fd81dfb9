package dev.toolgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

/**
 * Every create a system receives is kept with the fault it met, and every fault use taken is listed: what a
 * checker needs to tell a second send of one key (even one the system deduplicated) from a retry of a refused one.
 */
class ReceivedCreatesTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void keepsEachCreateWithTheFaultItMetAndListsTheFaultsTaken() throws Exception {
        try (Simulators simulators = Simulators.start(0, Map.of())) {
            SimulatorClient control = new SimulatorClient(simulators.baseUrl());
            control.arm("bitrix24", "key-1", "reset_before_commit", 1);
            control.armStatus("bitrix24", "key-1", 503, 1);
            control.arm("bitrix24", "key-2", "drop_response_after_commit", 1);
            control.armStatus("bitrix24", "key-never-sent", 429, 1);
            String deals = simulators.baseUrl() + "/bitrix24/rest/" + Simulators.BITRIX24_USER + "/" + Simulators.BITRIX24_SECRET + "/crm.deal.add";

            for (int i = 0; i < 3; i++) {
                add(deals, "key-1");
            }
            add(deals, "key-2");
            add(deals, "key-2"); // the second send of an effect already made: the system makes another deal

            assertEquals(List.of(new SimulatorClient.CreateRequest("reset_before_commit", false, false),
                    new SimulatorClient.CreateRequest("status", false, false),
                    new SimulatorClient.CreateRequest("none", true, false)), control.createRequests("bitrix24", "key-1"));
            assertEquals(List.of(new SimulatorClient.CreateRequest("drop_response_after_commit", true, false),
                    new SimulatorClient.CreateRequest("none", true, false)), control.createRequests("bitrix24", "key-2"));
            assertEquals(List.of("key-1 reset_before_commit", "key-1 status", "key-2 drop_response_after_commit"),
                    control.fired("bitrix24").stream().map(f -> f.match() + " " + f.fault()).toList());
            assertEquals(List.of(new SimulatorClient.ArmedFault("bitrix24", "key-never-sent", "status", 1)), control.stillArmed("bitrix24"));
            control.reset();
            assertEquals(List.of(), control.fired("bitrix24"));
            assertEquals(List.of(), control.createRequests("bitrix24", "key-1"));
        }
    }

    private void add(String url, String key) throws Exception {
        try {
            http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"fields\":{\"TITLE\":\"Сделка\",\"ORIGINATOR_ID\":\"toolgate\",\"ORIGIN_ID\":\""
                            + key + "\"}}")).build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException dropped) {
            // a dropped connection is one of the faults under test
        }
    }
}
