package dev.toolgate.notification;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NoticesTest {

    @Test
    void aDownstreamKeyNamesItsTenantAndTheKeyWhichMayHoldSlashes() {
        assertArrayEquals(new String[] {"acme", "inv/2026/7"}, Notices.split("acme/inv/2026/7", null).orElseThrow());
    }

    @Test
    void aPathTenantTakesOnlyItsOwnKeys() {
        assertArrayEquals(new String[] {"acme", "k"}, Notices.split("acme/k", "acme").orElseThrow());
        assertTrue(Notices.split("other/k", "acme").isEmpty());
    }

    @Test
    void whatIsNotADownstreamKeyNamesNoOperation() {
        assertTrue(Notices.split(null, null).isEmpty());
        assertTrue(Notices.split("no-slash", null).isEmpty());
        assertTrue(Notices.split("/k", null).isEmpty());
        assertTrue(Notices.split("acme/", null).isEmpty());
    }
}
