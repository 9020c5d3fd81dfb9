package dev.toolgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Each fault armed on notifications changes what a subscribed URL receives, and the control API says what happened. */
class NotificationFaultsTest {

    private static final Duration WAIT = NotifyingSimulators.WAIT;

    @RegisterExtension
    final NotifyingSimulators stack = new NotifyingSimulators();
    private YooKassaShop shop;

    @BeforeEach
    void start() throws Exception {
        shop = new YooKassaShop(stack.simulators());
        stack.control().subscribeYooKassa("payment.succeeded", stack.receiver().url("/hook"));
    }

    @Test
    void aLostNotificationIsNeverSent() throws Exception {
        stack.control().armNotification("yookassa", "payment.succeeded", "lose", 1, 0);

        String lost = shop.createPayment("10.00").getString("id");
        String sent = shop.createPayment("20.00").getString("id");

        assertEquals(sent, paymentId(stack.receiver().next(WAIT)));
        assertNull(stack.receiver().next(Duration.ofMillis(500)));
        List<SimulatorClient.SentNotification> all = stack.control().settledNotifications("yookassa", WAIT);
        assertEquals(List.of(lost, sent), all.stream().map(SimulatorClient.SentNotification::objectId).toList(), "in order of the changes");
        assertEquals(List.of("lost", "delivered"), all.stream().map(SimulatorClient.SentNotification::state).toList());
        assertEquals(0, all.get(0).attempts());
        assertNull(all.get(0).firstSentAt());
    }

    @Test
    void aDuplicatedNotificationArrivesTwice() throws Exception {
        stack.control().armNotification("yookassa", "payment.succeeded", "duplicate", 1, 0);

        shop.createPayment("10.00");

        List<NotificationReceiver.Received> copies = stack.receiver().next(2, WAIT);
        assertEquals(copies.get(0).body(), copies.get(1).body());
        SimulatorClient.SentNotification sent = stack.control().settledNotifications("yookassa", WAIT).get(0);
        assertEquals(List.of("duplicate", "delivered", "2"), List.of(sent.fault(), sent.state(), Integer.toString(sent.attempts())));
    }

    @Test
    void aDelayedNotificationArrivesAfterTheDelay() throws Exception {
        stack.control().armNotification("yookassa", "payment.succeeded", "delay", 1, 800);

        Instant changed = Instant.now();
        shop.createPayment("10.00");

        assertNull(stack.receiver().next(Duration.ofMillis(500)));
        assertTrue(!stack.receiver().next(WAIT).at().isBefore(changed.plusMillis(800)));
    }

    @Test
    void aReorderedNotificationArrivesJustAfterTheNextOne() throws Exception {
        stack.control().armNotification("yookassa", "payment.succeeded", "reorder", 1, 5_000);

        String first = shop.createPayment("10.00").getString("id");
        assertNull(stack.receiver().next(Duration.ofMillis(300)), "held back");
        String second = shop.createPayment("20.00").getString("id");

        List<NotificationReceiver.Received> arrived = stack.receiver().next(2, WAIT);
        assertEquals(List.of(second, first), List.of(paymentId(arrived.get(0)), paymentId(arrived.get(1))));
        assertTrue(Duration.between(arrived.get(0).at(), arrived.get(1).at()).toMillis() < 2_000, "not held for its fallback delay");
        assertEquals(List.of(first, second), stack.control().settledNotifications("yookassa", WAIT).stream()
                .map(SimulatorClient.SentNotification::objectId).toList(), "listed in order of the changes");
    }

    @Test
    void aReorderedNotificationGoesAfterItsDelayWhenNoOtherComes() throws Exception {
        stack.control().armNotification("yookassa", "payment.succeeded", "reorder", 1, 600);

        Instant changed = Instant.now();
        shop.createPayment("10.00");

        assertTrue(!stack.receiver().next(WAIT).at().isBefore(changed.plusMillis(600)));
    }

    @Test
    void aForeignSourceNotificationComesFromAnotherAddress() throws Exception {
        stack.control().armNotification("yookassa", "payment.succeeded", "foreign_source", 1, 0);

        String foreign = shop.createPayment("10.00").getString("id");
        String own = shop.createPayment("20.00").getString("id");

        Map<String, String> sources = stack.receiver().next(2, WAIT).stream()
                .collect(Collectors.toMap(NotificationFaultsTest::paymentId, NotificationReceiver.Received::remoteAddress));
        assertEquals(Map.of(foreign, "127.0.0.2", own, "127.0.0.1"), sources, "the receiver saw another peer address");
        assertEquals(List.of("127.0.0.2", "127.0.0.1"), stack.control().settledNotifications("yookassa", WAIT).stream()
                .map(SimulatorClient.SentNotification::source).toList());
    }

    @Test
    void refusesAFaultTheSystemDoesNotSend() {
        assertThrows(IllegalStateException.class, () -> stack.control().armNotification("bitrix24", "ONCRMDEALADD", "early", 1, 0),
                "Bitrix24 has no pending objects to notify early");
        assertThrows(IllegalStateException.class, () -> stack.control().armNotification("1c", "x", "lose", 1, 0), "1C sends no notifications");
        assertThrows(IllegalStateException.class, () -> stack.control().armNotification("yookassa", "x", "garble", 1, 0));
        assertThrows(IllegalStateException.class, () -> stack.control().armNotification("nobody", "x", "lose", 1, 0));
    }

    @Test
    void aResetForgetsNotificationsAndTheirFaults() throws Exception {
        stack.control().armNotification("yookassa", "payment.succeeded", "lose", 2, 0);
        shop.createPayment("10.00");

        stack.control().reset();
        stack.control().subscribeYooKassa("payment.succeeded", stack.receiver().url("/hook"));
        shop.createPayment("20.00");

        assertEquals(1, stack.control().settledNotifications("yookassa", WAIT).size());
        assertEquals("delivered", stack.control().notifications("yookassa").get(0).state(), "the second use of the fault went with the reset");
    }

    private static String paymentId(NotificationReceiver.Received received) {
        JsonObject notification = SimHttp.object(received.body());
        return notification.getJsonObject("object").getString("id");
    }
}
