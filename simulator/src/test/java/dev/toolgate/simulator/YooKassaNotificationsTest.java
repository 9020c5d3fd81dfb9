package dev.toolgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * YooKassa notifies every status change of a payment or refund to the URLs subscribed through {@code /v3/webhooks},
 * with the object as the API reads it at that moment, and retries a notification until it is answered 200.
 */
class YooKassaNotificationsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private Simulators simulators;
    private SimulatorClient control;
    private YooKassaShop shop;
    private NotificationReceiver receiver;

    @BeforeEach
    void start() throws Exception {
        simulators = Simulators.start(0, Map.of());
        control = new SimulatorClient(simulators.baseUrl());
        shop = new YooKassaShop(simulators);
        receiver = new NotificationReceiver();
    }

    @AfterEach
    void stop() {
        receiver.close();
        simulators.close();
    }

    @Test
    void notifiesASucceededPaymentWithTheObjectTheApiReads() throws Exception {
        control.subscribeYooKassa("payment.succeeded", receiver.url("/notifications/yookassa"));

        JsonObject payment = shop.createPayment("125.00");

        NotificationReceiver.Received received = receiver.next(WAIT);
        assertEquals("/notifications/yookassa", received.path());
        assertEquals("application/json", received.contentType());
        assertEquals("127.0.0.1", received.remoteAddress());
        JsonObject notification = SimHttp.object(received.body());
        assertEquals("notification", notification.getString("type"));
        assertEquals("payment.succeeded", notification.getString("event"));
        assertEquals(shop.get("payments/" + payment.getString("id")), notification.getJsonObject("object"));
        SimulatorClient.SentNotification sent = control.settledNotifications("yookassa", WAIT).get(0);
        assertEquals(List.of("payment.succeeded", payment.getString("id"), receiver.url("/notifications/yookassa"), "127.0.0.1",
                "none", "delivered"), List.of(sent.event(), sent.objectId(), sent.url(), sent.source(), sent.fault(), sent.state()));
        assertEquals(List.of(1, 200), List.of(sent.attempts(), sent.deliveredStatus()));
        assertTrue(sent.firstSentAt() != null && sent.deliveredAt() != null, sent.toString());
    }

    @Test
    void notifiesAPendingPaymentWhenItSucceedsAndTheApiSaysSoFromThen() throws Exception {
        control.subscribeYooKassa("payment.succeeded", receiver.url("/hook"));
        control.armPending("yookassa", "payments", 700);

        Instant created = Instant.now();
        JsonObject payment = shop.createPayment("10.00");
        assertEquals("pending", payment.getString("status"));
        assertNull(receiver.next(Duration.ofMillis(400)), "nothing is sent while the payment is pending");

        NotificationReceiver.Received received = receiver.next(WAIT);
        JsonObject object = SimHttp.object(received.body()).getJsonObject("object");
        JsonObject read = shop.get("payments/" + payment.getString("id"));
        assertEquals("succeeded", object.getString("status"));
        assertTrue(!received.at().isBefore(created.plusMillis(700)), "sent at the due time, not before");
        assertEquals(read, object, "from the notification on, the API reads the payment as notified");
    }

    @Test
    void notifiesASucceededRefund() throws Exception {
        control.subscribeYooKassa("refund.succeeded", receiver.url("/hook"));
        JsonObject payment = shop.createPayment("50.00");

        JsonObject refund = shop.createRefund(payment.getString("id"), "20.00");

        JsonObject notification = SimHttp.object(receiver.next(WAIT).body());
        assertEquals("refund.succeeded", notification.getString("event"));
        assertEquals(shop.get("refunds/" + refund.getString("id")), notification.getJsonObject("object"));
        assertNull(receiver.next(Duration.ofMillis(300)), "the payment's own success went to no one: nobody subscribed to it");
    }

    @Test
    void retriesAtGrowingIntervalsUntilAnswered200() throws Exception {
        control.subscribeYooKassa("payment.succeeded", receiver.url("/hook"));
        receiver.answer(500, 503);

        shop.createPayment("10.00");

        List<NotificationReceiver.Received> tries = receiver.next(3, WAIT);
        assertEquals(tries.get(0).body(), tries.get(2).body(), "each try sends the same notification");
        assertTrue(Duration.between(tries.get(0).at(), tries.get(1).at()).toMillis() >= 240, "first retry after ~250 ms");
        assertTrue(Duration.between(tries.get(1).at(), tries.get(2).at()).toMillis() >= 490, "second retry after ~500 ms");
        SimulatorClient.SentNotification sent = control.settledNotifications("yookassa", WAIT).get(0);
        assertEquals("delivered", sent.state());
        assertEquals(3, sent.attempts());
        assertEquals(200, sent.deliveredStatus());
    }

    @Test
    void givesUpAfterTheLastRetryAndSaysSo() throws Exception {
        control.subscribeYooKassa("payment.succeeded", "http://127.0.0.1:9/nobody-listens");

        shop.createPayment("10.00");

        SimulatorClient.SentNotification sent = control.settledNotifications("yookassa", Duration.ofSeconds(15)).get(0);
        assertEquals("failed", sent.state());
        assertEquals(6, sent.attempts(), "the first try and five retries");
        assertEquals(0, sent.deliveredStatus(), "no answer: the connection was refused");
    }

    @Test
    void earlyFaultSendsTheSuccessWhileTheApiStillSaysPending() throws Exception {
        control.subscribeYooKassa("payment.succeeded", receiver.url("/hook"));
        control.armNotification("yookassa", "payment.succeeded", "early", 1, 0);
        control.armPending("yookassa", "payments", 1_000);

        JsonObject payment = shop.createPayment("10.00");

        JsonObject early = SimHttp.object(receiver.next(WAIT).body()).getJsonObject("object");
        assertEquals("succeeded", early.getString("status"));
        assertEquals("pending", shop.get("payments/" + payment.getString("id")).getString("status"), "the API does not say so yet");
        JsonObject onTime = SimHttp.object(receiver.next(WAIT).body()).getJsonObject("object");
        assertEquals(shop.get("payments/" + payment.getString("id")), onTime, "the real change is notified again, as usual");
        assertEquals(List.of("early", "none"), control.notifications("yookassa").stream().map(SimulatorClient.SentNotification::fault).toList());
    }

    @Test
    void subscriptionsAreListedAndRemovedThroughTheWebhooksApi() throws Exception {
        String id = control.subscribeYooKassa("payment.succeeded", receiver.url("/hook"));
        assertTrue(id.startsWith("wh-"), id);
        JsonObject list = shop.get("webhooks");
        assertEquals("list", list.getString("type"));
        assertEquals(id, list.getJsonArray("items").getJsonObject(0).getString("id"));

        assertEquals(200, shop.delete("webhooks/" + id).statusCode());
        assertEquals(0, shop.get("webhooks").getJsonArray("items").size());
        shop.createPayment("10.00");
        assertNull(receiver.next(Duration.ofMillis(500)), "an unsubscribed URL is sent nothing");
    }

    @Test
    void refusesABadSubscriptionWithTheProvidersErrorForm() throws Exception {
        HttpResponse<String> badEvent = shop.post("webhooks", "{\"event\":\"payment.done\",\"url\":\"http://127.0.0.1/hook\"}");
        assertEquals(400, badEvent.statusCode());
        JsonObject error = SimHttp.object(badEvent.body());
        assertEquals("error", error.getString("type"));
        assertEquals("invalid_request", error.getString("code"));
        assertEquals("event", error.getString("parameter"));

        HttpResponse<String> badUrl = shop.post("webhooks", "{\"event\":\"payment.succeeded\",\"url\":\"not a url\"}");
        assertEquals(400, badUrl.statusCode());
        assertEquals("url", SimHttp.object(badUrl.body()).getString("parameter"));
        assertEquals(404, shop.delete("webhooks/wh-unknown").statusCode());
    }
}
