package dev.toolgate.notification;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SourceNetworksTest {

    private final SourceNetworks published = SourceNetworks.parse(NoticeSettings.YOOKASSA_PUBLISHED);

    @Test
    void admitsAnAddressInsideAPublishedBlockAndTheSingleAddresses() {
        assertTrue(published.admits("185.71.76.31"));
        assertTrue(published.admits("77.75.156.11"));
        assertTrue(published.admits("2a02:5180:0:1::7"));
    }

    @Test
    void refusesAnAddressJustOutsideABlock() {
        assertFalse(published.admits("185.71.76.32"), "a /27 ends at .31");
        assertFalse(published.admits("77.75.156.12"));
        assertFalse(published.admits("127.0.0.1"));
        assertFalse(published.admits("2a03::1"));
    }

    @Test
    void refusesWhatIsNotAnAddressLiteralWithoutResolvingIt() {
        assertFalse(published.admits("localhost"));
        assertFalse(published.admits(""));
        assertFalse(published.admits(null));
    }

    @Test
    void aBlankListAdmitsAnySource() {
        assertTrue(SourceNetworks.parse(" ").any());
        assertTrue(SourceNetworks.parse("").admits("203.0.113.9"));
    }

    @Test
    void theLoopbackBlockOfTheLocalRunAdmitsOnlyItsAddress() {
        SourceNetworks local = SourceNetworks.parse("127.0.0.1/32");
        assertTrue(local.admits("127.0.0.1"));
        assertFalse(local.admits("127.0.0.2"), "the simulators' foreign source");
    }

    @Test
    void aMalformedBlockIsRefusedWithItsText() {
        assertThrows(IllegalArgumentException.class, () -> SourceNetworks.parse("185.71.76.0/33"));
        assertThrows(IllegalArgumentException.class, () -> SourceNetworks.parse("yookassa.ru"));
        assertThrows(IllegalArgumentException.class, () -> SourceNetworks.parse("10.0.0.0/x"));
    }
}
