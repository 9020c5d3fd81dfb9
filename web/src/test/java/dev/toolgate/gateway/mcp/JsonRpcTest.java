package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

class JsonRpcTest {

    private static JsonRpc.Message read(String body) {
        return JsonRpc.read(body.getBytes(StandardCharsets.UTF_8));
    }

    private static void refused(String body, int code) {
        assertEquals(code, assertInstanceOf(JsonRpc.Malformed.class, read(body)).code(), body);
    }

    @Test
    void readsARequestWithItsIdAndParams() {
        JsonRpc.Call call = assertInstanceOf(JsonRpc.Call.class, read("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"}}"));
        assertEquals("tools/list", call.method());
        assertEquals("7", call.id().toString());
        assertEquals("x", call.params().getString("cursor"));
    }

    @Test
    void readsARequestWithoutParamsAsEmptyParams() {
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, assertInstanceOf(JsonRpc.Call.class, read("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}")).params());
    }

    @Test
    void readsAMessageWithoutIdAsANotification() {
        assertEquals("notifications/initialized",
                assertInstanceOf(JsonRpc.Notice.class, read("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).method());
    }

    @Test
    void readsAClientsResultAsAReply() {
        assertInstanceOf(JsonRpc.Reply.class, read("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
    }

    @Test
    void refusesWhatIsNotJsonAsAParseError() {
        refused("{\"jsonrpc\":\"2.0\",", JsonRpc.PARSE_ERROR);
        refused("", JsonRpc.PARSE_ERROR);
        refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"tools/call\"}", JsonRpc.PARSE_ERROR); // I-JSON: no duplicates
    }

    @Test
    void refusesNonUtf8AsAParseError() {
        assertEquals(JsonRpc.PARSE_ERROR, assertInstanceOf(JsonRpc.Malformed.class, JsonRpc.read(new byte[]{'{', (byte) 0xC3, '}'})).code());
    }

    @Test
    void refusesBatchesAndScalarsAsInvalidRequests() {
        refused("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", JsonRpc.INVALID_REQUEST);
        refused("42", JsonRpc.INVALID_REQUEST);
    }

    @Test
    void refusesAMessageOfAnotherJsonRpcVersion() {
        refused("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", JsonRpc.INVALID_REQUEST);
        refused("{\"id\":1,\"method\":\"ping\"}", JsonRpc.INVALID_REQUEST);
    }

    @Test
    void refusesAMethodThatIsNotAString() {
        refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}", JsonRpc.INVALID_REQUEST);
        refused("{\"jsonrpc\":\"2.0\",\"id\":1}", JsonRpc.INVALID_REQUEST);
    }

    @Test
    void refusesAnIdThatIsNullOrAnObject() {
        refused("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", JsonRpc.INVALID_REQUEST);
        refused("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", JsonRpc.INVALID_REQUEST);
        refused("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", JsonRpc.INVALID_REQUEST);
    }

    @Test
    void refusesParamsThatAreNotAnObjectAsInvalidParamsUnderTheRequestsId() {
        JsonRpc.Malformed malformed = assertInstanceOf(JsonRpc.Malformed.class, read("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":[1]}"));
        assertEquals(JsonRpc.INVALID_PARAMS, malformed.code());
        assertEquals("3", malformed.id().toString());
    }

    @Test
    void errorsCarryTheCodeUnderTheId() {
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"m\"}}",
                JsonRpc.error(JsonValue.NULL, JsonRpc.PARSE_ERROR, "m").toString());
    }
}
