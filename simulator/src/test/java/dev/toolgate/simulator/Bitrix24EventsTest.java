package dev.toolgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Handlers bound with {@code event.bind} on the incoming webhook are sent {@code ONCRMDEALADD} and
 * {@code ONCRMDEALUPDATE} as the portal sends them: a form with the deal's id and the portal's auth fields, once.
 */
class Bitrix24EventsTest {

    private static final Duration WAIT = NotifyingSimulators.WAIT;

    @RegisterExtension
    final NotifyingSimulators stack = new NotifyingSimulators();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void sendsTheDocumentedFormWhenADealIsAdded() throws Exception {
        stack.control().bindBitrix24("ONCRMDEALADD", stack.receiver().url("/notifications/bitrix24"));

        int deal = call("crm.deal.add", "{\"fields\":{\"TITLE\":\"Сделка\"}}").getInt("result");

        NotificationReceiver.Received received = stack.receiver().next(WAIT);
        assertTrue(received.contentType().startsWith("application/x-www-form-urlencoded"), received.contentType());
        assertTrue(received.body().contains("data%5BFIELDS%5D%5BID%5D=" + deal), "brackets percent-encoded: " + received.body());
        Map<String, String> form = form(received.body());
        assertEquals(List.of("event", "event_handler_id", "data[FIELDS][ID]", "ts", "auth[domain]", "auth[client_endpoint]",
                "auth[server_endpoint]", "auth[member_id]", "auth[application_token]"), List.copyOf(form.keySet()));
        assertEquals("ONCRMDEALADD", form.get("event"));
        assertEquals("1", form.get("event_handler_id"));
        assertEquals(Integer.toString(deal), form.get("data[FIELDS][ID]"));
        assertTrue(Math.abs(Long.parseLong(form.get("ts")) - Instant.now().getEpochSecond()) <= 5, form.get("ts"));
        assertEquals(URI.create(stack.simulators().baseUrl()).getAuthority(), form.get("auth[domain]"));
        assertEquals(stack.simulators().baseUrl() + "/bitrix24/rest/", form.get("auth[client_endpoint]"), "the portal as the binder reached it");
        assertEquals("https://oauth.bitrix.info/rest/", form.get("auth[server_endpoint]"));
        assertTrue(form.get("auth[member_id]").matches("[0-9a-f]{32}"), form.get("auth[member_id]"));
        assertEquals(Simulators.BITRIX24_APPLICATION_TOKEN, form.get("auth[application_token]"));
    }

    @Test
    void sendsDealUpdateWhenADealIsUpdated() throws Exception {
        stack.control().bindBitrix24("ONCRMDEALADD", stack.receiver().url("/hook"));
        stack.control().bindBitrix24("ONCRMDEALUPDATE", stack.receiver().url("/hook"));

        int deal = call("crm.deal.add", "{\"fields\":{\"TITLE\":\"Сделка\"}}").getInt("result");
        call("crm.deal.update", "{\"id\":" + deal + ",\"fields\":{\"STAGE_ID\":\"WON\"}}");

        List<NotificationReceiver.Received> events = stack.receiver().next(2, WAIT);
        Map<String, String> added = form(events.get(0).body());
        Map<String, String> updated = form(events.get(1).body());
        assertEquals(List.of("ONCRMDEALADD", "ONCRMDEALUPDATE"), List.of(added.get("event"), updated.get("event")));
        assertEquals(List.of("1", "2"), List.of(added.get("event_handler_id"), updated.get("event_handler_id")));
        assertEquals(added.get("data[FIELDS][ID]"), updated.get("data[FIELDS][ID]"));
    }

    @Test
    void callsAFailingHandlerOnceAndRecordsTheFailure() throws Exception {
        stack.control().bindBitrix24("ONCRMDEALADD", stack.receiver().url("/hook"));
        stack.receiver().answer(500);

        call("crm.deal.add", "{\"fields\":{\"TITLE\":\"Сделка\"}}");

        stack.receiver().next(WAIT);
        assertNull(stack.receiver().next(Duration.ofSeconds(1)), "the portal does not call again");
        SimulatorClient.SentNotification sent = stack.control().settledNotifications("bitrix24", WAIT).get(0);
        assertEquals(List.of("failed", "1", "500"), List.of(sent.state(), Integer.toString(sent.attempts()),
                Integer.toString(sent.deliveredStatus())));
    }

    @Test
    void aFaultMatchesTheDealIdAsWellAsTheEvent() throws Exception {
        stack.control().bindBitrix24("ONCRMDEALADD", stack.receiver().url("/hook"));
        stack.control().armNotification("bitrix24", "101", "lose", 1, 0);

        call("crm.deal.add", "{\"fields\":{\"TITLE\":\"Первая\"}}");
        call("crm.deal.add", "{\"fields\":{\"TITLE\":\"Вторая\"}}");

        assertEquals("100", form(stack.receiver().next(WAIT).body()).get("data[FIELDS][ID]"));
        assertEquals(List.of("delivered", "lost"), stack.control().settledNotifications("bitrix24", WAIT).stream()
                .map(SimulatorClient.SentNotification::state).toList());
    }

    @Test
    void bindsListsAndUnbindsHandlersWithFormParametersToo() throws Exception {
        String handler = stack.receiver().url("/hook");
        HttpResponse<String> bound = send("event.bind", "application/x-www-form-urlencoded",
                "event=onCrmDealUpdate&handler=" + handler.replace(":", "%3A").replace("/", "%2F"));
        assertEquals(200, bound.statusCode(), bound.body());
        assertTrue(SimHttp.object(bound.body()).getBoolean("result"));

        JsonObject listed = call("event.get", "{}").getJsonArray("result").getJsonObject(0);
        assertEquals(List.of("ONCRMDEALUPDATE", handler, "0", "0"), List.of(listed.getString("event"), listed.getString("handler"),
                listed.getString("auth_type"), listed.get("offline").toString()));

        assertEquals(1, call("event.unbind", "{\"event\":\"ONCRMDEALUPDATE\",\"handler\":\"" + handler + "\"}")
                .getJsonObject("result").getInt("count"));
        assertEquals(0, call("event.get", "{}").getJsonArray("result").size());
    }

    @Test
    void refusesABadBindingWithThePortalsErrorForm() throws Exception {
        assertError("ERROR_EVENT_NOT_FOUND", send("event.bind", "application/json", "{\"event\":\"ONCRMDEALEXPLODE\",\"handler\":\"http://127.0.0.1/h\"}"));
        assertError("ERROR_WRONG_HANDLER_URL", send("event.bind", "application/json", "{\"event\":\"ONCRMDEALADD\",\"handler\":\"/relative\"}"));
        assertError("ERROR_UNSUPPORTED_PROTOCOL", send("event.bind", "application/json", "{\"event\":\"ONCRMDEALADD\",\"handler\":\"ftp://h/x\"}"));
        stack.control().bindBitrix24("ONCRMDEALADD", "http://127.0.0.1/h");
        assertError("ERROR_CORE", send("event.bind", "application/json", "{\"event\":\"ONCRMDEALADD\",\"handler\":\"http://127.0.0.1/h\"}"));
    }

    private static void assertError(String code, HttpResponse<String> response) {
        assertEquals(400, response.statusCode(), response.body());
        JsonObject error = SimHttp.object(response.body());
        assertEquals(code, error.getString("error"));
        assertTrue(!error.getString("error_description").isBlank());
    }

    private JsonObject call(String method, String json) throws Exception {
        HttpResponse<String> response = send(method, "application/json", json);
        assertEquals(200, response.statusCode(), response.body());
        return SimHttp.object(response.body());
    }

    private HttpResponse<String> send(String method, String contentType, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(Simulators.bitrix24Url(stack.simulators().baseUrl()) + method))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The form as a PHP handler reads it: names and values decoded, in order. */
    private static Map<String, String> form(String body) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            String[] kv = pair.split("=", 2);
            fields.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        return fields;
    }
}
