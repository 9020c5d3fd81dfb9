package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.toolgate.canonical.IJsonReader;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

class EraLadderTest {

    private static final String ENVELOPE = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    private static EraLadder.Admission admit(String method, String params, String... headers) {
        Map<String, String> sent = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < headers.length; i += 2) {
            sent.put(headers[i], headers[i + 1]);
        }
        return EraLadder.admit(sent::get, new JsonRpc.Call(JSON.createValue(3), method, IJsonReader.read(params).asJsonObject()));
    }

    private static JsonObject refusal(EraLadder.Admission admission) {
        return assertInstanceOf(EraLadder.Refused.class, admission).error().getJsonObject("error");
    }

    @Test
    void admitsAModernDiscoveryWithItsHeaders() {
        assertInstanceOf(ProtocolVersions.Modern.class, assertInstanceOf(EraLadder.Admitted.class,
                admit("server/discover", "{" + ENVELOPE + "}", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "server/discover")).era());
    }

    @Test
    void answersAnUnsupportedRevisionWithTheSupportedList() {
        JsonObject error = refusal(admit("tools/list", "{}", "MCP-Protocol-Version", "2024-11-05"));
        assertEquals(-32022, error.getInt("code"));
        assertEquals("2024-11-05", error.getJsonObject("data").getString("requested"));
        assertEquals(3, error.getJsonObject("data").getJsonArray("supported").size());
    }

    @Test
    void answersAHeaderBodyDisagreementWithHeaderMismatch() {
        assertEquals(-32020, refusal(admit("tools/list", "{" + ENVELOPE + "}", "MCP-Protocol-Version", "2025-11-25")).getInt("code"));
        assertEquals(-32020, refusal(admit("tools/list", "{" + ENVELOPE + "}", "MCP-Protocol-Version", "2026-07-28")).getInt("code"),
                "Mcp-Method missing");
    }

    @Test
    void answersAModernHeaderWithoutEnvelopeAsInvalidParams() {
        assertEquals(-32602, refusal(admit("tools/list", "{}", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list")).getInt("code"));
    }

    @Test
    void answersAModernBodyWithoutItsClientCapabilitiesAsInvalidParams() { // found by the conformance suite's server-stateless
        assertEquals(-32602, refusal(admit("tools/list", "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}",
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list")).getInt("code"));
    }

    @Test
    void answersAHeaderBodyDisagreementAsMismatchEvenWhenTheBodyNamesARevisionItDoesNotSpeak() { // server-stateless too
        assertEquals(-32020, refusal(admit("tools/list", "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\"}}",
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list")).getInt("code"));
    }

    @Test
    void admitsALegacyRequestAsBefore() {
        assertInstanceOf(ProtocolVersions.Legacy.class, assertInstanceOf(EraLadder.Admitted.class,
                admit("initialize", "{\"protocolVersion\":\"2025-11-25\"}")).era());
    }

    @Test
    void neverRepeatsAClaimedRevisionThatIsNotShapedLikeOne() {
        String card = "4111 1111 1111 1111";
        JsonObject unsupported = refusal(admit("tools/list", "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + card
                + "\",\"io.modelcontextprotocol/clientCapabilities\":{}}}", "MCP-Protocol-Version", card));
        assertEquals(-32022, unsupported.getInt("code"));
        assertEquals("", unsupported.getJsonObject("data").getString("requested"), "the schema requires the member; it names no revision");
        JsonObject mismatch = refusal(admit("tools/list", "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + card
                + "\",\"io.modelcontextprotocol/clientCapabilities\":{}}}", "MCP-Protocol-Version", "2026-07-28"));
        assertEquals(-32020, mismatch.getInt("code"));
        org.junit.jupiter.api.Assertions.assertFalse(mismatch.toString().contains("4111") || mismatch.toString().contains("2026-07-28"),
                mismatch.toString());
    }

    @Test
    void echoesAClaimedVersionShapedLikeOneAsTheProtocolRequires() {
        for (String claim : new String[] {"v999.0.0", "2099-01-01"}) {
            JsonObject unsupported = refusal(admit("tools/list", "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + claim
                    + "\",\"io.modelcontextprotocol/clientCapabilities\":{}}}", "MCP-Protocol-Version", claim));
            assertEquals(claim, unsupported.getJsonObject("data").getString("requested"));
        }
        for (String claim : new String[] {"4111111111111111", "4111-1111-1111-1111", "v" + "9".repeat(40)}) {
            JsonObject unsupported = refusal(admit("tools/list", "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + claim
                    + "\",\"io.modelcontextprotocol/clientCapabilities\":{}}}", "MCP-Protocol-Version", claim));
            assertEquals("", unsupported.getJsonObject("data").getString("requested"), claim);
        }
    }
}
