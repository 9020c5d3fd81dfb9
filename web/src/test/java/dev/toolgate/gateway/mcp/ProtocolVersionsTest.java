package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.toolgate.canonical.IJsonReader;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

class ProtocolVersionsTest {

    private static String negotiated(String asked) {
        return ProtocolVersions.negotiate(JSON.createObjectBuilder().add("protocolVersion", asked).build());
    }

    private static JsonObject modernParams(String version) {
        return IJsonReader.read("{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + version + "\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}}}").asJsonObject();
    }

    @Test
    void echoesEveryLegacyRevisionItSpeaks() {
        assertEquals("2025-11-25", negotiated("2025-11-25"));
        assertEquals("2025-06-18", negotiated("2025-06-18"));
    }

    @Test
    void offersItsLatestLegacyRevisionForTheRevisionThatRequiredBatches() {
        assertEquals("2025-11-25", negotiated("2025-03-26"), "its batches are refused here, so it is not spoken");
    }

    @Test
    void answersAnInitializeForTheModernOrAnUnknownRevisionWithItsLatestLegacyOne() {
        assertEquals("2025-11-25", negotiated("2026-07-28"), "2026-07-28 has no initialize: its clients send server/discover");
        assertEquals("2025-11-25", negotiated("2024-11-05"));
        assertEquals("2025-11-25", negotiated("banana"));
        assertEquals("2025-11-25", ProtocolVersions.negotiate(JsonValue.EMPTY_JSON_OBJECT));
    }

    @Test
    void servesABodyThatClaimsTheModernRevisionWithItsHeaderAsModernWithItsCapabilities() {
        ProtocolVersions.Modern modern = assertInstanceOf(ProtocolVersions.Modern.class,
                ProtocolVersions.of("2026-07-28", modernParams("2026-07-28")));
        assertEquals("2026-07-28", modern.version());
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, modern.capabilities().getJsonObject("extensions").getJsonObject("io.modelcontextprotocol/tasks"));
    }

    @Test
    void refusesAModernBodyWithoutTheHeaderOrWithAnotherOne() {
        assertInstanceOf(ProtocolVersions.HeaderMismatch.class, ProtocolVersions.of(null, modernParams("2026-07-28")));
        assertInstanceOf(ProtocolVersions.HeaderMismatch.class, ProtocolVersions.of("2025-11-25", modernParams("2026-07-28")));
    }

    @Test
    void refusesABodyClaimingARevisionItDoesNotSpeakNamingIt() {
        assertEquals("2099-01-01", assertInstanceOf(ProtocolVersions.Unsupported.class,
                ProtocolVersions.of("2099-01-01", modernParams("2099-01-01"))).requested());
        assertInstanceOf(ProtocolVersions.Unsupported.class, ProtocolVersions.of("2025-11-25", modernParams("2025-11-25")),
                "a legacy revision has no per-request envelope");
    }

    @Test
    void refusesTheModernHeaderWithoutTheBodysEnvelope() {
        assertInstanceOf(ProtocolVersions.MissingEnvelope.class, ProtocolVersions.of("2026-07-28", JsonValue.EMPTY_JSON_OBJECT));
    }

    @Test
    void servesABodyWithoutEnvelopeAsLegacyUnderALegacyHeaderOrNone() {
        assertInstanceOf(ProtocolVersions.Legacy.class, ProtocolVersions.of(null, JsonValue.EMPTY_JSON_OBJECT));
        assertInstanceOf(ProtocolVersions.Legacy.class, ProtocolVersions.of("2025-11-25", JsonValue.EMPTY_JSON_OBJECT));
        assertInstanceOf(ProtocolVersions.Legacy.class, ProtocolVersions.of("2025-06-18", JsonValue.EMPTY_JSON_OBJECT));
    }

    @Test
    void refusesALegacyHeaderItDoesNotSpeak() {
        assertEquals("2025-03-26", assertInstanceOf(ProtocolVersions.Unsupported.class,
                ProtocolVersions.of("2025-03-26", JsonValue.EMPTY_JSON_OBJECT)).requested());
    }
}
