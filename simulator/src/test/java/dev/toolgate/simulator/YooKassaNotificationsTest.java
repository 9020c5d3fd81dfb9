package dev.toolgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * YooKassa notifies every status change of a payment or refund to the URLs subscribed through {@code /v3/webhooks},
 * with the object as the API reads it at that moment, and retries a notification until it is answered 200. First of
 * the module's classes ({@link Order}, the pom): the longest, so it runs beside the others rather than after them.
 */
@Order(1)
class YooKassaNotificationsTest {

    private static final Duration WAIT = NotifyingSimulators.WAIT;

    @RegisterExtension
    final NotifyingSimulators stack = new NotifyingSimulators();
    private YooKassaShop shop;

    @BeforeEach
    void start() throws Exception {
        shop = new YooKassaShop(stack.simulators());
    }

    @Test
    void notifiesASucceededPaymentWithTheObjectTheApiReads() throws Exception {
        stack.control().subscribeYooKassa("payment.succeeded", stack.receiver().url("/notifications/yookassa"));

        JsonObject payment = shop.createPayment("125.00");

        NotificationReceiver.Received received = stack.receiver().next(WAIT);
        assertEquals("/notifications/yookassa", received.path());
        assertEquals("application/json", received.contentType());
        assertEquals("127.0.0.1", received.remoteAddress());
        JsonObject notification = SimHttp.object(received.body());
        assertEquals("notification", notification.getString("type"));
        assertEquals("payment.succeeded", notification.getString("event"));
        assertEquals(shop.get("payments/" + payment.getString("id")), notification.getJsonObject("object"));
        SimulatorClient.SentNotification sent = stack.control().settledNotifications("yookassa", WAIT).get(0);
        assertEquals(List.of("payment.succeeded", payment.getString("id"), stack.receiver().url("/notifications/yookassa"), "127.0.0.1",
                "none", "delivered"), List.of(sent.event(), sent.objectId(), sent.url(), sent.source(), sent.fault(), sent.state()));
        assertEquals(List.of(1, 200), List.of(sent.attempts(), sent.deliveredStatus()));
        assertTrue(sent.firstSentAt() != null && sent.deliveredAt() != null, sent.toString());
    }

    @Test
    void notifiesAPendingPaymentWhenItSucceedsAndTheApiSaysSoFromThen() throws Exception {
        stack.control().subscribeYooKassa("payment.succeeded", stack.receiver().url("/hook"));
        stack.control().armPending("yookassa", "payments", 700);

        Instant created = Instant.now();
        JsonObject payment = shop.createPayment("10.00");
        assertEquals("pending", payment.getString("status"));
        assertNull(stack.receiver().next(Duration.ofMillis(400)), "nothing is sent while the payment is pending");

        NotificationReceiver.Received received = stack.receiver().next(WAIT);
        JsonObject object = SimHttp.object(received.body()).getJsonObject("object");
        JsonObject read = shop.get("payments/" + payment.getString("id"));
        assertEquals("succeeded", object.getString("status"));
        assertTrue(!received.at().isBefore(created.plusMillis(700)), "sent at the due time, not before");
        assertEquals(read, object, "from the notification on, the API reads the payment as notified");
    }

    @Test
    void notifiesASucceededRefund() throws Exception {
        stack.control().subscribeYooKassa("refund.succeeded", stack.receiver().url("/hook"));
        JsonObject payment = shop.createPayment("50.00");

        JsonObject refund = shop.createRefund(payment.getString("id"), "20.00");

        JsonObject notification = SimHttp.object(stack.receiver().next(WAIT).body());
        assertEquals("refund.succeeded", notification.getString("event"));
        assertEquals(shop.get("refunds/" + refund.getString("id")), notification.getJsonObject("object"));
        assertNull(stack.receiver().next(Duration.ofMillis(300)), "the payment's own success went to no one: nobody subscribed to it");
    }

    @Test
    void retriesAtGrowingIntervalsUntilAnswered200() throws Exception {
        stack.control().subscribeYooKassa("payment.succeeded", stack.receiver().url("/hook"));
        stack.receiver().answer(500, 503);

        shop.createPayment("10.00");

        List<NotificationReceiver.Received> tries = stack.receiver().next(3, WAIT);
        assertEquals(tries.get(0).body(), tries.get(2).body(), "each try sends the same notification");
        assertTrue(Duration.between(tries.get(0).at(), tries.get(1).at()).toMillis() >= 240, "first retry after ~250 ms");
        assertTrue(Duration.between(tries.get(1).at(), tries.get(2).at()).toMillis() >= 490, "second retry after ~500 ms");
        SimulatorClient.SentNotification sent = stack.control().settledNotifications("yookassa", WAIT).get(0);
        assertEquals("delivered", sent.state());
        assertEquals(3, sent.attempts());
        assertEquals(200, sent.deliveredStatus());
    }

    /** As many retries as YooKassa's own five, a tenth as far apart: what is tested is the count and the giving up. */
    @Test
    @NotifyingSimulators.YooKassaRetryMs({25, 50, 100, 200, 400})
    void givesUpAfterTheLastRetryAndSaysSo() throws Exception {
        stack.control().subscribeYooKassa("payment.succeeded", "http://127.0.0.1:9/nobody-listens");

        shop.createPayment("10.00");

        SimulatorClient.SentNotification sent = stack.control().settledNotifications("yookassa", Duration.ofSeconds(15)).get(0);
        assertEquals("failed", sent.state());
        assertEquals(6, sent.attempts(), "the first try and five retries");
        assertEquals(0, sent.deliveredStatus(), "no answer: the connection was refused");
    }

    @Test
    void earlyFaultSendsTheSuccessWhileTheApiStillSaysPending() throws Exception {
        stack.control().subscribeYooKassa("payment.succeeded", stack.receiver().url("/hook"));
        stack.control().armNotification("yookassa", "payment.succeeded", "early", 1, 0);
        stack.control().armPending("yookassa", "payments", 1_000);

        JsonObject payment = shop.createPayment("10.00");

        JsonObject early = SimHttp.object(stack.receiver().next(WAIT).body()).getJsonObject("object");
        assertEquals("succeeded", early.getString("status"));
        assertEquals("pending", shop.get("payments/" + payment.getString("id")).getString("status"), "the API does not say so yet");
        JsonObject onTime = SimHttp.object(stack.receiver().next(WAIT).body()).getJsonObject("object");
        assertEquals(shop.get("payments/" + payment.getString("id")), onTime, "the real change is notified again, as usual");
        assertEquals(List.of("early", "none"), stack.control().notifications("yookassa").stream().map(SimulatorClient.SentNotification::fault).toList());
    }

    @Test
    void subscriptionsAreListedAndRemovedThroughTheWebhooksApi() throws Exception {
        String id = stack.control().subscribeYooKassa("payment.succeeded", stack.receiver().url("/hook"));
        assertTrue(id.startsWith("wh-"), id);
        JsonObject list = shop.get("webhooks");
        assertEquals("list", list.getString("type"));
        assertEquals(id, list.getJsonArray("items").getJsonObject(0).getString("id"));

        assertEquals(200, shop.delete("webhooks/" + id).statusCode());
        assertEquals(0, shop.get("webhooks").getJsonArray("items").size());
        shop.createPayment("10.00");
        assertNull(stack.receiver().next(Duration.ofMillis(500)), "an unsubscribed URL is sent nothing");
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
