package dev.toolgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Each fault armed on notifications changes what a subscribed URL receives, and the control API says what happened. */
class NotificationFaultsTest {

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
        control.subscribeYooKassa("payment.succeeded", receiver.url("/hook"));
    }

    @AfterEach
    void stop() {
        receiver.close();
        simulators.close();
    }

    @Test
    void aLostNotificationIsNeverSent() throws Exception {
        control.armNotification("yookassa", "payment.succeeded", "lose", 1, 0);

        String lost = shop.createPayment("10.00").getString("id");
        String sent = shop.createPayment("20.00").getString("id");

        assertEquals(sent, paymentId(receiver.next(WAIT)));
        assertNull(receiver.next(Duration.ofMillis(500)));
        List<SimulatorClient.SentNotification> all = control.settledNotifications("yookassa", WAIT);
        assertEquals(List.of(lost, sent), all.stream().map(SimulatorClient.SentNotification::objectId).toList(), "in order of the changes");
        assertEquals(List.of("lost", "delivered"), all.stream().map(SimulatorClient.SentNotification::state).toList());
        assertEquals(0, all.get(0).attempts());
        assertNull(all.get(0).firstSentAt());
    }

    @Test
    void aDuplicatedNotificationArrivesTwice() throws Exception {
        control.armNotification("yookassa", "payment.succeeded", "duplicate", 1, 0);

        shop.createPayment("10.00");

        List<NotificationReceiver.Received> copies = receiver.next(2, WAIT);
        assertEquals(copies.get(0).body(), copies.get(1).body());
        SimulatorClient.SentNotification sent = control.settledNotifications("yookassa", WAIT).get(0);
        assertEquals(List.of("duplicate", "delivered", "2"), List.of(sent.fault(), sent.state(), Integer.toString(sent.attempts())));
    }

    @Test
    void aDelayedNotificationArrivesAfterTheDelay() throws Exception {
        control.armNotification("yookassa", "payment.succeeded", "delay", 1, 800);

        Instant changed = Instant.now();
        shop.createPayment("10.00");

        assertNull(receiver.next(Duration.ofMillis(500)));
        assertTrue(!receiver.next(WAIT).at().isBefore(changed.plusMillis(800)));
    }

    @Test
    void aReorderedNotificationArrivesJustAfterTheNextOne() throws Exception {
        control.armNotification("yookassa", "payment.succeeded", "reorder", 1, 5_000);

        String first = shop.createPayment("10.00").getString("id");
        assertNull(receiver.next(Duration.ofMillis(300)), "held back");
        String second = shop.createPayment("20.00").getString("id");

        List<NotificationReceiver.Received> arrived = receiver.next(2, WAIT);
        assertEquals(List.of(second, first), List.of(paymentId(arrived.get(0)), paymentId(arrived.get(1))));
        assertTrue(Duration.between(arrived.get(0).at(), arrived.get(1).at()).toMillis() < 2_000, "not held for its fallback delay");
        assertEquals(List.of(first, second), control.settledNotifications("yookassa", WAIT).stream()
                .map(SimulatorClient.SentNotification::objectId).toList(), "listed in order of the changes");
    }

    @Test
    void aReorderedNotificationGoesAfterItsDelayWhenNoOtherComes() throws Exception {
        control.armNotification("yookassa", "payment.succeeded", "reorder", 1, 600);

        Instant changed = Instant.now();
        shop.createPayment("10.00");

        assertTrue(!receiver.next(WAIT).at().isBefore(changed.plusMillis(600)));
    }

    @Test
    void aForeignSourceNotificationComesFromAnotherAddress() throws Exception {
        control.armNotification("yookassa", "payment.succeeded", "foreign_source", 1, 0);

        String foreign = shop.createPayment("10.00").getString("id");
        String own = shop.createPayment("20.00").getString("id");

        Map<String, String> sources = receiver.next(2, WAIT).stream()
                .collect(Collectors.toMap(NotificationFaultsTest::paymentId, NotificationReceiver.Received::remoteAddress));
        assertEquals(Map.of(foreign, "127.0.0.2", own, "127.0.0.1"), sources, "the receiver saw another peer address");
        assertEquals(List.of("127.0.0.2", "127.0.0.1"), control.settledNotifications("yookassa", WAIT).stream()
                .map(SimulatorClient.SentNotification::source).toList());
    }

    @Test
    void refusesAFaultTheSystemDoesNotSend() {
        assertThrows(IllegalStateException.class, () -> control.armNotification("bitrix24", "ONCRMDEALADD", "early", 1, 0),
                "Bitrix24 has no pending objects to notify early");
        assertThrows(IllegalStateException.class, () -> control.armNotification("1c", "x", "lose", 1, 0), "1C sends no notifications");
        assertThrows(IllegalStateException.class, () -> control.armNotification("yookassa", "x", "garble", 1, 0));
        assertThrows(IllegalStateException.class, () -> control.armNotification("nobody", "x", "lose", 1, 0));
    }

    @Test
    void aResetForgetsNotificationsAndTheirFaults() throws Exception {
        control.armNotification("yookassa", "payment.succeeded", "lose", 2, 0);
        shop.createPayment("10.00");

        control.reset();
        control.subscribeYooKassa("payment.succeeded", receiver.url("/hook"));
        shop.createPayment("20.00");

        assertEquals(1, control.settledNotifications("yookassa", WAIT).size());
        assertEquals("delivered", control.notifications("yookassa").get(0).state(), "the second use of the fault went with the reset");
    }

    private static String paymentId(NotificationReceiver.Received received) {
        JsonObject notification = SimHttp.object(received.body());
        return notification.getJsonObject("object").getString("id");
    }
}
