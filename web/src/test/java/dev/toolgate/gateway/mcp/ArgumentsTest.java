package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.canonical.IJsonReader;
import org.junit.jupiter.api.Test;

import java.util.Optional;

class ArgumentsTest {

    private static Optional<String> check(String tool, String arguments) {
        return Arguments.problem(ToolCatalog.find(tool).orElseThrow(), IJsonReader.read(arguments));
    }

    private static final String INVOICE = "\"idempotency_key\":\"t:invoice.create:o-1:v1\",\"order_id\":\"o-1\",\"currency\":\"RUB\"";

    @Test
    void takesArgumentsOfTheToolsShape() {
        assertEquals(Optional.empty(), check("invoice_create", "{" + INVOICE + ",\"amount_minor\":100}"));
        assertEquals(Optional.empty(), check("invoice_create", "{" + INVOICE + ",\"amount_minor\":100,\"post\":true,\"due_at\":null}"));
        assertEquals(Optional.empty(), check("get_operation", "{\"idempotency_key\":\"k\"}"));
        assertEquals(Optional.empty(), check("list_open_operations", "{}"));
    }

    @Test
    void leavesAFractionToTheFieldsOwnRule() {
        assertEquals(Optional.empty(), check("invoice_create", "{" + INVOICE + ",\"amount_minor\":100.5}"));
    }

    @Test
    void refusesArgumentsThatAreNotAnObject() {
        assertTrue(check("invoice_create", "[1]").isPresent());
    }

    @Test
    void refusesAMissingOrIllTypedKey() {
        assertTrue(check("invoice_create", "{\"order_id\":\"o\",\"amount_minor\":1,\"currency\":\"RUB\"}").orElseThrow().contains("idempotency_key"));
        assertTrue(check("get_operation", "{\"idempotency_key\":42}").orElseThrow().contains("idempotency_key"));
    }

    @Test
    void refusesAMissingRequiredArgument() {
        assertEquals("argument 'amount_minor' is required", check("invoice_create", "{" + INVOICE + "}").orElseThrow());
    }

    @Test
    void refusesAnIllTypedArgument() {
        assertEquals("argument 'amount_minor' must be integer", check("invoice_create", "{" + INVOICE + ",\"amount_minor\":\"100\"}").orElseThrow());
        assertEquals("argument 'post' must be boolean", check("invoice_create", "{" + INVOICE + ",\"amount_minor\":1,\"post\":\"yes\"}").orElseThrow());
    }

    @Test
    void refusesAnUnknownArgument() {
        assertTrue(check("invoice_create", "{" + INVOICE + ",\"amount_minor\":1,\"colour\":\"red\"}").orElseThrow().contains("colour"));
        assertTrue(check("resume_operation", "{\"idempotency_key\":\"k\",\"amount_minor\":1}").orElseThrow().contains("amount_minor"));
        assertTrue(check("list_open_operations", "{\"idempotency_key\":\"k\"}").orElseThrow().contains("idempotency_key"));
    }
}
