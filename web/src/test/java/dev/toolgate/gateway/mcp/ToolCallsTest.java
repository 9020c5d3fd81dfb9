package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.gateway.ReplayWindow;
import dev.toolgate.journal.JournalSettings;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Set;

class ToolCallsTest {

    private static final Caller AGENT = new Caller("agent-a", "acme", Set.of(Role.AGENT));
    private static final String KEY = "t:invoice.create:o-1:v1";

    /** No gateway and no journal: a call that reached either would fail, so these answers stored and sent nothing. */
    private static JsonObject call(String tool, String arguments) {
        ToolCalls calls = new ToolCalls();
        calls.replays = new ReplayWindow(new JournalSettings());
        return calls.call(AGENT, ToolCatalog.find(tool).orElseThrow(), IJsonReader.read(arguments), "http://gw/api", "1");
    }

    private static JsonObject problem(JsonObject result) {
        return result.getJsonObject("structuredContent").getJsonObject("problem");
    }

    @Test
    void answersAMissingKeyWithAnErrorResultTheModelCanRead() {
        JsonObject result = call("invoice_create", "{\"order_id\":\"o-1\",\"amount_minor\":100,\"currency\":\"RUB\"}");
        assertTrue(result.getBoolean("isError"));
        assertEquals("refused", result.getJsonObject("structuredContent").getString("outcome"));
        assertEquals("https://toolgate.dev/problems/idempotency-key-missing", problem(result).getString("type"));
        assertEquals("idempotency_key", problem(result).getString("field"));
        assertFalse(result.getJsonObject("structuredContent").containsKey("operation_key"), "there is no key to echo");
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        assertTrue(text.contains("idempotency_key is required"), text);
    }

    @Test
    void answersAnIllTypedArgumentWithAnInvalidPayloadResultNamingItAndEchoingTheKey() {
        JsonObject result = call("invoice_create", "{\"idempotency_key\":\"" + KEY + "\",\"order_id\":\"o-1\",\"amount_minor\":\"100\",\"currency\":\"RUB\"}");
        assertTrue(result.getBoolean("isError"));
        assertEquals("https://toolgate.dev/problems/invalid-payload", problem(result).getString("type"));
        assertEquals("amount_minor", problem(result).getString("field"));
        assertTrue(problem(result).getString("detail").contains("must be integer"), problem(result).toString());
        assertEquals(KEY, result.getJsonObject("structuredContent").getString("operation_key"));
    }

    @Test
    void answersArgumentsThatAreNotAnObjectWithAnInvalidRequestResult() {
        JsonObject result = call("get_operation", "[\"" + KEY + "\"]");
        assertTrue(result.getBoolean("isError"));
        assertEquals("https://toolgate.dev/problems/invalid-request", problem(result).getString("type"));
        assertFalse(problem(result).containsKey("field"));
    }

    @Test
    void refusesACardNumberBeforeSayingAnythingElseAboutTheArguments() {
        JsonObject result = call("invoice_create", "{\"order_id\":\"4111111111111111\",\"colour\":1}");
        assertEquals("https://toolgate.dev/problems/card-number-rejected", problem(result).getString("type"));
    }
}
