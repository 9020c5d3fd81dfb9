package dev.toolgate.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.canonical.InvalidCommand;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** What each broken declaration is refused with at start-up, and what a valid one becomes. */
class ProcessDeclarationsTest {

    /** invoice → deal (its title from the invoice's number) → payment (refunded if a later step fails). */
    private static final String VALID = """
            {"process": "test.order", "input": {"order_id": {"type": "text", "max_length": 64},
               "amount_minor": {"type": "minor_amount"}, "currency": {"type": "currency"},
               "due_at": {"type": "timestamp", "required": false}},
             "steps": [
               {"name": "invoice", "operation": "invoice.create",
                "payload": {"order_id": "${input.order_id}", "amount_minor": "${input.amount_minor}", "currency": "${input.currency}", "due_at": "${input.due_at}"},
                "compensation": {"impossible": "this test's 1C has no cancellation"}},
               {"name": "deal", "operation": "crm.deal.create",
                "payload": {"title": "Заказ ${input.order_id}, счёт ${steps.invoice.result.number}", "amount_minor": "${input.amount_minor}", "currency": "${input.currency}"}, "compensation": {"none": "a deal of a failed order is closed by hand"}},
               {"name": "payment", "operation": "payment.create",
                "payload": {"order_id": "${input.order_id}", "amount_minor": "${input.amount_minor}", "currency": "${input.currency}", "description": "Счёт ${steps.invoice.result.number}"},
                "compensation": {"operation": "payment.refund", "payload": {"payment_id": "${steps.payment.object_id}",
                   "amount_minor": "${input.amount_minor}", "currency": "${input.currency}", "reason": "заказ отменён"}}}
             ]}""";

    @Test
    void readsAValidDeclaration() {
        ProcessType type = ProcessDeclarations.parse(VALID).get(0);
        assertEquals("test.order", type.name());
        assertEquals(List.of("invoice", "deal", "payment"), type.steps().stream().map(StepDeclaration::name).toList());
        assertInstanceOf(Compensation.Irreversible.class, type.steps().get(0).compensation());
        assertInstanceOf(Compensation.NothingToUndo.class, type.steps().get(1).compensation());
        Compensation.Undo refund = assertInstanceOf(Compensation.Undo.class, type.steps().get(2).compensation());
        assertEquals("payment.refund", refund.operation());
        assertEquals("yookassa", refund.target());
    }

    @Test
    void readsTheShippedExamples() throws Exception {
        try (InputStream examples = ProcessCatalog.class.getClassLoader().getResourceAsStream(ProcessCatalog.EXAMPLES)) {
            List<ProcessType> types = ProcessDeclarations.parse(new String(examples.readAllBytes(), StandardCharsets.UTF_8));
            assertEquals(List.of("order.fulfil", "order.prepay"), types.stream().map(ProcessType::name).toList());
            assertEquals(List.of("invoice.create", "invoice.post", "crm.deal.create", "payment.create"),
                    types.get(0).steps().stream().map(StepDeclaration::operation).toList());
        }
    }

    @Test
    void refusesTheStepNameCompensationsKeysUse() {
        refused(VALID.replace("\"name\": \"deal\"", "\"name\": \"compensation\"").replace("steps.deal.", "steps.compensation."),
                "step 'compensation': the name is reserved");
    }

    @Test
    void refusesANameWhoseToolNameCouldBeAnotherTypes() {
        refused(VALID.replace("\"test.order\"", "\"test.big_order\""), "a name is dotted lower-case words of letters and digits");
    }

    @Test
    void refusesAnUnknownOperation() {
        refused(VALID.replace("\"crm.deal.create\"", "\"crm.deal.make\""), "step 'deal': unknown operation 'crm.deal.make'");
    }

    @Test
    void refusesATemplateReferringToAFieldTheInputDoesNotDeclare() {
        refused(VALID.replace("${input.order_id}, счёт", "${input.customer}, счёт"),
                "'title' refers to ${input.customer}, which the process's input does not declare");
    }

    @Test
    void refusesAReferenceToAResultFieldTheOperationNeverStores() {
        refused(VALID.replace("Заказ ${input.order_id}, счёт ${steps.invoice.result.number}", "${steps.invoice.result.total}"),
                "refers to ${steps.invoice.result.total}, but the result of invoice.create holds [number, posted]");
    }

    @Test
    void refusesAReferenceToAStepThatRunsLater() {
        refused(VALID.replace("Заказ ${input.order_id}, счёт ${steps.invoice.result.number}", "${steps.payment.object_id}"),
                "step 'deal': 'title' refers to ${steps.payment.object_id}, a step that runs later");
    }

    @Test
    void refusesACycleNamingIt() {
        String cycle = VALID.replace("{\"order_id\": \"${input.order_id}\", \"amount_minor\": \"${input.amount_minor}\", \"currency\": \"${input.currency}\", \"due_at\"",
                "{\"order_id\": \"${steps.deal.object_id}\", \"amount_minor\": \"${input.amount_minor}\", \"currency\": \"${input.currency}\", \"due_at\"");
        refused(cycle, "the steps refer to each other in a cycle (invoice → deal → invoice)");
    }

    @Test
    void refusesAStepReferringToItself() {
        refused(VALID.replace("Заказ ${input.order_id}, счёт ${steps.invoice.result.number}", "${steps.deal.object_id}"),
                "'title' refers to ${steps.deal.object_id}, itself");
    }

    @Test
    void refusesAReferenceToAStepThatDoesNotExist() {
        refused(VALID.replace("счёт ${steps.invoice.result.number}", "счёт ${steps.bill.result.number}"), "the process declares no step 'bill'");
    }

    @Test
    void refusesAMalformedReference() {
        refused(VALID.replace("счёт ${steps.invoice.result.number}", "счёт ${invoice.number}"), "a reference is ${input.<field>}");
    }

    @Test
    void refusesAFieldTheOperationDoesNotHave() {
        refused(VALID.replace("\"description\": \"Счёт", "\"memo\": \"x\", \"description\": \"Счёт"),
                "step 'payment': sets 'memo', which is not a field of payment.create");
    }

    @Test
    void refusesARequiredFieldLeftUnset() {
        refused(VALID.replace(", \"description\": \"Счёт ${steps.invoice.result.number}\"", ""),
                "step 'payment': does not set 'description', which payment.create requires");
    }

    @Test
    void refusesPersonalDataInAStep() {
        refused(VALID.replace("\"due_at\": \"${input.due_at}\"", "\"counterparty_inn\": \"${input.order_id}\""),
                "sets 'counterparty_inn', personal data");
    }

    @Test
    void refusesAStepWithoutACompensationDeclared() {
        refused(VALID.replace(", \"compensation\": {\"none\": \"a deal of a failed order is closed by hand\"}", ""),
                "step 'deal': say how it is compensated");
    }

    @Test
    void refusesAPayloadThatWouldBeInvalidWithValuesOfTheDeclaredShapes() {
        refused(VALID.replace("\"amount_minor\": \"${input.amount_minor}\", \"currency\": \"${input.currency}\", \"description\"",
                        "\"amount_minor\": \"${input.currency}\", \"currency\": \"${input.currency}\", \"description\""),
                "step 'payment' (payment.create) would be invalid: amount_minor: must be an integer number of minor units");
    }

    @Test
    void refusesAnOptionalInputInsideText() {
        refused(VALID.replace("\"Счёт ${steps.invoice.result.number}\"", "\"Срок ${input.due_at}\""),
                "inside text, but the input field is optional");
    }

    @Test
    void refusesTwoDeclarationsOfOneName() {
        refused("[" + VALID + "," + VALID + "]", "process 'test.order' is declared twice");
    }

    @Test
    void refusesAnInputTypeThatCouldCarryPersonalData() {
        refused(VALID.replace("{\"type\": \"currency\"}", "{\"type\": \"inn\"}"), "input field 'currency': 'type' is one of");
    }

    @Test
    void refusesWhatIsNotJson() {
        refused("{\"process\": ", "the declarations are not JSON");
    }

    @Test
    void refusesBeforeAnythingIsStoredAPayloadThatMakesAStepInvalid() {
        ProcessType type = ProcessDeclarations.parse(VALID.replace("\"max_length\": 64", "\"max_length\": 200")).get(0);
        JsonObject input = (JsonObject) IJsonReader.read("{\"order_id\": \"" + "x".repeat(130) + "\", \"amount_minor\": 100, \"currency\": \"RUB\"}");
        InvalidCommand refused = assertThrows(InvalidCommand.class, () -> StepPayloads.checkAll(type, input));
        assertTrue(refused.getMessage().startsWith("step 'invoice' (invoice.create) would be invalid: order_id: must be at most 128"),
                refused.getMessage());
    }

    private static void refused(String declaration, String expected) {
        InvalidDeclaration refused = assertThrows(InvalidDeclaration.class, () -> ProcessDeclarations.parse(declaration));
        assertTrue(refused.getMessage().contains(expected), refused.getMessage());
    }
}
