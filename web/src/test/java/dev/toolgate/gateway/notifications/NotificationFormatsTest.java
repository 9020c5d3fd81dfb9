package dev.toolgate.gateway.notifications;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** What each bad notification body gets, and what is read from a good one: ids and our key only. */
class NotificationFormatsTest {

    @Test
    void aYooKassaNotificationGivesItsEventTheObjectIdAndOurKeyNothingElse() {
        Announcement.Change change = assertInstanceOf(Announcement.Change.class, yooKassa("{\"type\":\"notification\","
                + "\"event\":\"payment.succeeded\",\"object\":{\"id\":\"2d8c5e0c-000f-5000-9000-1d5d6e1e8f1a\",\"status\":\"succeeded\","
                + "\"metadata\":{\"gw_key\":\"acme/pay-1\"},\"payment_method\":{\"card\":{\"first6\":\"555555\",\"last4\":\"4444\"}}}}"));
        assertEquals("payment.succeeded", change.event());
        assertEquals("payment", change.objectKind());
        assertEquals("2d8c5e0c-000f-5000-9000-1d5d6e1e8f1a", change.objectId());
        assertEquals("acme/pay-1", change.keyHint());
    }

    @Test
    void aRefundNotificationNamesARefund() {
        assertEquals("refund", assertInstanceOf(Announcement.Change.class,
                yooKassa("{\"type\":\"notification\",\"event\":\"refund.succeeded\",\"object\":{\"id\":\"r-1\"}}")).objectKind());
    }

    @Test
    void aYooKassaEventOurOperationsDoNotMakeIsIgnored() {
        assertInstanceOf(Announcement.Ignored.class,
                yooKassa("{\"type\":\"notification\",\"event\":\"payout.succeeded\",\"object\":{\"id\":\"po-1\"}}"));
    }

    @Test
    void aBodyThatIsNotAYooKassaNotificationIsMalformed() {
        assertInstanceOf(Announcement.Malformed.class, yooKassa("not json"));
        assertInstanceOf(Announcement.Malformed.class, yooKassa("[]"));
        assertInstanceOf(Announcement.Malformed.class, yooKassa("{\"type\":\"payment\",\"event\":\"payment.succeeded\",\"object\":{\"id\":\"p\"}}"));
        assertInstanceOf(Announcement.Malformed.class, yooKassa("{\"type\":\"notification\",\"event\":\"payment.succeeded\"}"));
        assertInstanceOf(Announcement.Malformed.class,
                yooKassa("{\"type\":\"notification\",\"event\":\"payment.succeeded\",\"object\":{\"id\":\"../admin\"}}"));
        assertInstanceOf(Announcement.Malformed.class,
                yooKassa("{\"type\":\"notification\",\"event\":\"<script>\",\"object\":{\"id\":\"p\"}}"));
    }

    @Test
    void aYooKassaObjectIdThatIsACardNumberIsRefusedBeforeItIsLoggedOrJournaled() {
        assertInstanceOf(Announcement.Malformed.class, yooKassa("{\"type\":\"notification\",\"event\":\"payment.succeeded\","
                + "\"object\":{\"id\":\"4111111111111111\"}}"));
    }

    @Test
    void aBitrix24DealEventGivesTheDealId() {
        Announcement.Change change = assertInstanceOf(Announcement.Change.class, Bitrix24Events.read(Map.of(
                "event", new String[] {"ONCRMDEALADD"}, "data[FIELDS][ID]", new String[] {"394"},
                "auth[application_token]", new String[] {"t0k"}, "ts", new String[] {"1764936000"})));
        assertEquals("394", change.objectId());
        assertEquals("deal", change.objectKind());
        assertNull(change.keyHint(), "a Bitrix24 event names the deal only: the target is asked whose it is");
    }

    @Test
    void aBitrix24EventOfAnotherObjectIsIgnored() {
        assertEquals("ONCRMCONTACTADD", assertInstanceOf(Announcement.Ignored.class, Bitrix24Events.read(Map.of(
                "event", new String[] {"ONCRMCONTACTADD"}, "auth[application_token]", new String[] {"t0k"}))).event());
    }

    @Test
    void aBitrix24FormWithoutOneDealIdOrEventIsMalformed() {
        assertInstanceOf(Announcement.Malformed.class, Bitrix24Events.read(Map.of("event", new String[] {"ONCRMDEALADD"})));
        assertInstanceOf(Announcement.Malformed.class, Bitrix24Events.read(Map.of("event", new String[] {"ONCRMDEALADD"},
                "data[FIELDS][ID]", new String[] {"1", "2"})));
        assertInstanceOf(Announcement.Malformed.class, Bitrix24Events.read(Map.of("event", new String[] {"ONCRMDEALADD"},
                "data[FIELDS][ID]", new String[] {"4111111111111111111"})));
        assertInstanceOf(Announcement.Malformed.class, Bitrix24Events.read(Map.of()));
    }

    @Test
    void theDoorsPathNamesATargetAndOptionallyATenant() {
        assertArrayEquals(new String[] {"yookassa"}, NotificationDoor.segments("/yookassa"));
        assertArrayEquals(new String[] {"bitrix24", "acme"}, NotificationDoor.segments("/bitrix24/acme"));
        assertNull(NotificationDoor.segments("/"));
        assertNull(NotificationDoor.segments(null));
        assertNull(NotificationDoor.segments("/yookassa/acme/extra"));
        assertNull(NotificationDoor.segments("/YooKassa"));
        assertNull(NotificationDoor.segments("/yookassa/"));
    }

    private static Announcement yooKassa(String body) {
        return YooKassaNotifications.read(body.getBytes(StandardCharsets.UTF_8));
    }
}
