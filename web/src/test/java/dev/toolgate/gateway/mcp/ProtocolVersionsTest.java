package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

class ProtocolVersionsTest {

    private static String negotiated(String asked) {
        return ProtocolVersions.negotiate(JSON.createObjectBuilder().add("protocolVersion", asked).build());
    }

    @Test
    void echoesEveryRevisionItSpeaks() {
        assertEquals("2025-11-25", negotiated("2025-11-25"));
        assertEquals("2025-06-18", negotiated("2025-06-18"));
    }

    @Test
    void offersItsLatestForTheRevisionThatRequiredBatches() {
        assertEquals("2025-11-25", negotiated("2025-03-26"), "its batches are refused here, so it is not spoken");
    }

    @Test
    void answersANewerOrUnknownRevisionWithItsLatest() {
        assertEquals("2025-11-25", negotiated("2026-07-28"));
        assertEquals("2025-11-25", negotiated("2024-11-05"));
        assertEquals("2025-11-25", negotiated("banana"));
    }

    @Test
    void answersAMissingRevisionWithItsLatest() {
        assertEquals("2025-11-25", ProtocolVersions.negotiate(JsonValue.EMPTY_JSON_OBJECT));
    }
}
