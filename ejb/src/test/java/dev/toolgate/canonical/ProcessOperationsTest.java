package dev.toolgate.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

/**
 * The operations a process builds from the objects of earlier steps (invoice.post, invoice.cancel,
 * crm.deal.lose): a reference that cannot name an object is refused before anything is stored.
 */
class ProcessOperationsTest {

    private static final String GUID = "5e1d7a3c-0643-4f00-8000-000000000643";

    @Test
    void postsAnInvoiceNamedByItsGuidInLowerCase() {
        CanonicalRequest upper = canonical("invoice.post", "1c", "{\"invoice_id\":\"" + GUID.toUpperCase() + "\"}");
        CanonicalRequest lower = canonical("invoice.post", "1c", "{\"invoice_id\":\"" + GUID + "\"}");
        assertEquals(GUID, upper.payload().getString("invoice_id"));
        assertEquals(lower.fingerprint(), upper.fingerprint(), "two spellings of one reference are one intent");
    }

    @Test
    void refusesAnInvoiceIdThatIsNotAGuid() {
        for (String id : new String[] {"\"12345\"", "\"guid'" + GUID + "'\"", "\"{" + GUID + "}\"", "\"" + GUID + " \"",
                "\"" + GUID.substring(1) + "\"", "\"" + GUID.replace('-', '_') + "\"", "\"zzzzzzzz-0643-4f00-8000-000000000643\"", "42"}) {
            InvalidCommand refused = assertInvalid("invoice_id", "invoice.post", "1c", "{\"invoice_id\":" + id + "}");
            assertTrue(refused.getMessage().contains("must be a GUID") || refused.getMessage().contains("must be a string"),
                    refused.getMessage());
        }
        assertInvalid("invoice_id", "invoice.cancel", "1c", "{\"invoice_id\":\"order-1\",\"reason\":\"дубль\"}");
    }

    @Test
    void requiresTheInvoiceToPostOrCancelAndTheReasonToCancel() {
        assertEquals("invoice_id: is required", assertInvalid("invoice_id", "invoice.post", "1c", "{}").getMessage());
        assertEquals("invoice_id: is required",
                assertInvalid("invoice_id", "invoice.cancel", "1c", "{\"reason\":\"дубль\"}").getMessage());
        assertEquals("reason: is required",
                assertInvalid("reason", "invoice.cancel", "1c", "{\"invoice_id\":\"" + GUID + "\"}").getMessage());
        assertInvalid("reason", "invoice.cancel", "1c", "{\"invoice_id\":\"" + GUID + "\",\"reason\":\" \"}");
        assertInvalid("reason", "invoice.cancel", "1c", "{\"invoice_id\":\"" + GUID + "\",\"reason\":\"" + "x".repeat(251) + "\"}");
        assertEquals(250, canonical("invoice.cancel", "1c", "{\"invoice_id\":\"" + GUID + "\",\"reason\":\"" + "x".repeat(250) + "\"}")
                .payload().getString("reason").length());
    }

    @Test
    void refusesFieldsThePostingDoesNotHave() {
        assertInvalid("post", "invoice.post", "1c", "{\"invoice_id\":\"" + GUID + "\",\"post\":true}");
    }

    @Test
    void losesADealNamedByItsDigitsWithAnOptionalReason() {
        assertEquals("4711", canonical("crm.deal.lose", "bitrix24", "{\"deal_id\":\"4711\"}").payload().getString("deal_id"));
        JsonObject withReason = canonical("crm.deal.lose", "bitrix24", "{\"deal_id\":\"4711\",\"reason\":\"клиент отказался\"}").payload();
        assertEquals("клиент отказался", withReason.getString("reason"));
    }

    @Test
    void refusesADealIdThatIsNotAPositiveIntegerInDigits() {
        for (String id : new String[] {"\"abc\"", "\"12a\"", "\"-5\"", "\"+5\"", "\"0\"", "\"007\"", "\" 7\"", "\"٧\"", "\"1e3\"",
                "\"1234567890123456789\"", "4711", "\"\""}) {
            InvalidCommand refused = assertInvalid("deal_id", "crm.deal.lose", "bitrix24", "{\"deal_id\":" + id + "}");
            assertTrue(refused.getMessage().startsWith("deal_id: must be"), refused.getMessage());
        }
        assertEquals("deal_id: is required", assertInvalid("deal_id", "crm.deal.lose", "bitrix24", "{\"reason\":\"r\"}").getMessage());
        assertInvalid("reason", "crm.deal.lose", "bitrix24", "{\"deal_id\":\"7\",\"reason\":\"" + "x".repeat(251) + "\"}");
    }

    @Test
    void sendsEachOperationOnlyToItsOwnTarget() {
        InvalidCommand wrong = assertThrows(InvalidCommand.class, () -> Canonicalizer.canonicalize(
                new AgentCommand("crm.deal.lose", "1c", read("{\"deal_id\":\"7\"}"))));
        assertEquals(InvalidCommand.Reason.UNKNOWN_TARGET, wrong.reason());
    }

    private static InvalidCommand assertInvalid(String field, String operation, String target, String payload) {
        InvalidCommand e = assertThrows(InvalidCommand.class, () -> canonical(operation, target, payload), payload);
        assertEquals(InvalidCommand.Reason.INVALID_PAYLOAD, e.reason(), e.getMessage());
        assertEquals(field, e.field(), e.getMessage());
        return e;
    }

    private static CanonicalRequest canonical(String operation, String target, String payload) {
        return Canonicalizer.canonicalize(new AgentCommand(operation, target, read(payload)));
    }

    private static JsonObject read(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }
}
