package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.gateway.edge.ProblemType;
import org.junit.jupiter.api.Test;

import java.util.Optional;

class ArgumentsTest {

    private static Optional<Arguments.Refusal> check(String tool, String arguments) {
        return Arguments.problem(ToolCatalog.find(tool).orElseThrow(), IJsonReader.read(arguments));
    }

    private static Arguments.Refusal refusal(String tool, String arguments) {
        return check(tool, arguments).orElseThrow();
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
    void refusesArgumentsThatAreNotAnObjectAsAnInvalidRequest() {
        Arguments.Refusal refusal = refusal("invoice_create", "[1]");
        assertEquals(ProblemType.INVALID_REQUEST, refusal.type());
        assertNull(refusal.argument());
        assertTrue(refusal.detail().contains("must be an object") && refusal.detail().endsWith("not an array"), refusal.detail());
    }

    @Test
    void refusesAMissingKeyAsRestRefusesAMissingHeader() {
        Arguments.Refusal missing = refusal("invoice_create", "{\"order_id\":\"o\",\"amount_minor\":1,\"currency\":\"RUB\"}");
        assertEquals(ProblemType.IDEMPOTENCY_KEY_MISSING, missing.type());
        assertEquals("idempotency_key", missing.argument());
        assertTrue(missing.detail().startsWith("idempotency_key is required: a string")
                && missing.detail().contains("<contour>:<operation>:<intent-id>:<version>"), missing.detail());
        assertEquals(ProblemType.IDEMPOTENCY_KEY_MISSING, refusal("get_operation", "{\"idempotency_key\":null}").type());
    }

    @Test
    void refusesAKeyThatIsNotAStringAsAnInvalidKey() {
        Arguments.Refusal refusal = refusal("get_operation", "{\"idempotency_key\":42}");
        assertEquals(ProblemType.IDEMPOTENCY_KEY_INVALID, refusal.type());
        assertEquals("idempotency_key", refusal.argument());
        assertTrue(refusal.detail().endsWith("; not a number"), refusal.detail());
    }

    @Test
    void refusesAMissingRequiredArgumentAsAnInvalidPayloadNamingItsType() {
        Arguments.Refusal refusal = refusal("invoice_create", "{" + INVOICE + "}");
        assertEquals(ProblemType.INVALID_PAYLOAD, refusal.type());
        assertEquals("amount_minor", refusal.argument());
        assertTrue(refusal.detail().startsWith("argument 'amount_minor' is required: integer, money in minor units"), refusal.detail());
    }

    @Test
    void refusesAnIllTypedArgumentAsAnInvalidPayloadSayingWhatWasSent() {
        Arguments.Refusal amount = refusal("invoice_create", "{" + INVOICE + ",\"amount_minor\":\"100\"}");
        assertEquals(ProblemType.INVALID_PAYLOAD, amount.type());
        assertEquals("amount_minor", amount.argument());
        assertTrue(amount.detail().startsWith("argument 'amount_minor' must be integer,") && amount.detail().endsWith("; not a string"),
                amount.detail());
        Arguments.Refusal post = refusal("invoice_create", "{" + INVOICE + ",\"amount_minor\":1,\"post\":\"yes\"}");
        assertEquals("post", post.argument());
        assertTrue(post.detail().startsWith("argument 'post' must be boolean"), post.detail());
    }

    @Test
    void refusesAnUnknownArgumentOfAnOperationAsAnInvalidPayloadListingTheAcceptedOnes() {
        Arguments.Refusal refusal = refusal("invoice_create", "{" + INVOICE + ",\"amount_minor\":1,\"colour\":\"red\"}");
        assertEquals(ProblemType.INVALID_PAYLOAD, refusal.type());
        assertEquals("colour", refusal.argument());
        assertTrue(refusal.detail().startsWith("'colour' is not an argument of invoice_create (accepted: ")
                && refusal.detail().contains("amount_minor") && refusal.detail().contains("idempotency_key"), refusal.detail());
    }

    @Test
    void refusesAnArgumentToResumeAsRestRefusesAResumeBody() {
        Arguments.Refusal refusal = refusal("resume_operation", "{\"idempotency_key\":\"k\",\"amount_minor\":1}");
        assertEquals(ProblemType.RESUME_TAKES_NO_PARAMETERS, refusal.type());
        assertEquals("amount_minor", refusal.argument());
    }

    @Test
    void refusesAnUnknownArgumentOfAReadingToolAsAnInvalidRequest() {
        Arguments.Refusal refusal = refusal("list_open_operations", "{\"idempotency_key\":\"k\"}");
        assertEquals(ProblemType.INVALID_REQUEST, refusal.type());
        assertEquals("'idempotency_key' is not an argument of list_open_operations; it takes none", refusal.detail());
        assertEquals(ProblemType.INVALID_REQUEST, refusal("get_operation", "{\"idempotency_key\":\"k\",\"x\":1}").type());
    }
}
