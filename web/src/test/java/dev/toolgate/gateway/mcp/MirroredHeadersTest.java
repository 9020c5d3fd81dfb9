package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.canonical.IJsonReader;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

class MirroredHeadersTest {

    private static final String KEY = "prod:invoice.create:order-1:v1";

    private static JsonRpc.Call call(String method, String params) {
        return new JsonRpc.Call(JSON.createValue(1), method, IJsonReader.read(params).asJsonObject());
    }

    private static JsonRpc.Call invoice(String key) {
        return call("tools/call", "{\"name\":\"invoice_create\",\"arguments\":{\"idempotency_key\":" + key + ",\"amount_minor\":1}}");
    }

    private static Optional<String> check(boolean modern, JsonRpc.Call call, String... headers) {
        Map<String, String> sent = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < headers.length; i += 2) {
            sent.put(headers[i], headers[i + 1]);
        }
        return MirroredHeaders.mismatch(modern, sent::get, call);
    }

    @Test
    void acceptsAModernToolCallWhoseHeadersMirrorItsBody() {
        assertEquals(Optional.empty(), check(true, invoice("\"" + KEY + "\""), "mcp-method", "tools/call", "MCP-NAME", "invoice_create",
                "Mcp-Param-Idempotency-Key", KEY));
    }

    @Test
    void refusesAModernRequestWithoutItsStandardHeaders() {
        assertTrue(check(true, call("tools/list", "{}")).isPresent(), "Mcp-Method");
        assertTrue(check(true, invoice("\"" + KEY + "\""), "Mcp-Method", "tools/call", "Mcp-Param-Idempotency-Key", KEY).isPresent(), "Mcp-Name");
    }

    @Test
    void refusesAModernToolCallWhoseKeyIsNotMirrored() {
        assertTrue(check(true, invoice("\"" + KEY + "\""), "Mcp-Method", "tools/call", "Mcp-Name", "invoice_create").isPresent());
    }

    @Test
    void refusesAKeyHeaderThatDiffersFromTheBodysKeyWithoutEchoingEither() {
        Optional<String> mismatch = check(false, invoice("\"" + KEY + "\""), "Mcp-Param-Idempotency-Key", "prod:invoice.create:other:v1");
        assertTrue(mismatch.isPresent());
        assertTrue(!mismatch.get().contains("order-1") && !mismatch.get().contains("other"), mismatch.get());
    }

    @Test
    void refusesAHeaderForAValueTheBodyDoesNotHave() {
        assertTrue(check(false, call("tools/call", "{\"name\":\"invoice_create\",\"arguments\":{}}"),
                "Mcp-Param-Idempotency-Key", KEY).isPresent());
    }

    @Test
    void expectsNoKeyHeaderForAToolThatTakesNoKeyOrACallWithoutOne() {
        assertEquals(Optional.empty(), check(true, call("tools/call", "{\"name\":\"list_open_operations\",\"arguments\":{}}"),
                "Mcp-Method", "tools/call", "Mcp-Name", "list_open_operations"));
        assertEquals(Optional.empty(), check(true, call("tools/call", "{\"name\":\"invoice_create\",\"arguments\":{\"idempotency_key\":null}}"),
                "Mcp-Method", "tools/call", "Mcp-Name", "invoice_create"));
    }

    @Test
    void leavesALegacyRequestWithoutMirroredHeadersAsItIs() {
        assertEquals(Optional.empty(), check(false, invoice("\"" + KEY + "\"")));
    }

    @Test
    void refusesALegacyRequestWhoseMethodHeaderDiffersFromItsBody() {
        assertTrue(check(false, call("tools/list", "{}"), "Mcp-Method", "tools/call").isPresent());
    }

    @Test
    void decodesTheBase64SentinelBeforeComparing() {
        String name = "=?base64?" + Base64.getEncoder().encodeToString("invoice_create".getBytes(StandardCharsets.UTF_8)) + "?=";
        assertEquals(Optional.empty(), check(true, invoice("\"" + KEY + "\""), "Mcp-Method", "tools/call", "Mcp-Name", name,
                "Mcp-Param-Idempotency-Key", KEY));
        assertEquals(Optional.of("ключ"), MirroredHeaders.decode("=?base64?" + Base64.getEncoder().encodeToString("ключ".getBytes(StandardCharsets.UTF_8)) + "?="));
    }

    @Test
    void refusesAHeaderValueThatIsNeitherVisibleAsciiNorValidBase64() {
        assertEquals(Optional.empty(), MirroredHeaders.decode("=?base64?not base64!?="));
        assertEquals(Optional.empty(), MirroredHeaders.decode("ключ"));
    }

    @Test
    void refusesBase64WithoutItsPadding() { // found by the conformance suite's http-custom-header-server-validation
        assertEquals(Optional.of("Hello"), MirroredHeaders.decode("=?base64?SGVsbG8=?="));
        assertEquals(Optional.empty(), MirroredHeaders.decode("=?base64?SGVsbG8?="), "SEP-2243: invalid padding is refused");
    }

    @Test
    void mirrorsATasksIdIntoMcpName() {
        assertTrue(check(true, call("tasks/get", "{\"taskId\":\"t1\"}"), "Mcp-Method", "tasks/get", "Mcp-Name", "t2").isPresent());
        assertEquals(Optional.empty(), check(true, call("tasks/get", "{\"taskId\":\"t1\"}"), "Mcp-Method", "tasks/get", "Mcp-Name", "t1"));
    }

    @Test
    void refusesAMirroredHeaderSentMoreThanOnceWhateverItsValues() {
        for (String name : new String[] {"MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Mcp-Param-Idempotency-Key"}) {
            Optional<String> refusal = MirroredHeaders.repeated(sent -> sent.equalsIgnoreCase(name) ? 2 : 1);
            assertTrue(refusal.isPresent() && refusal.get().contains(name), name + ": " + refusal);
        }
        assertEquals(Optional.empty(), MirroredHeaders.repeated(sent -> 1));
        assertEquals(Optional.empty(), MirroredHeaders.repeated(sent -> 0));
    }
}
