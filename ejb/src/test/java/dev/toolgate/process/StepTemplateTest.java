package dev.toolgate.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.toolgate.canonical.IJsonReader;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.util.Map;

/** How a step's payload is built from the process's input and the earlier steps' results. */
class StepTemplateTest {

    private static final JsonObject INPUT = json("{\"order_id\": \"o-1\", \"amount_minor\": 125000}");

    @Test
    void aWholeReferenceKeepsTheValuesType() {
        JsonObject built = build("{\"amount_minor\": \"${input.amount_minor}\"}", Map.of());
        assertEquals(json("{\"amount_minor\": 125000}"), built);
    }

    @Test
    void aReferenceInsideTextIsReplacedByItsText() {
        JsonObject built = build("{\"title\": \"Заказ ${input.order_id}: ${input.amount_minor} коп., счёт ${steps.invoice.result.number}\"}",
                Map.of(new StepTemplate.Reference("invoice", "number"), json("{\"n\": \"0000-000042\"}").get("n")));
        assertEquals("Заказ o-1: 125000 коп., счёт 0000-000042", built.getString("title"));
    }

    @Test
    void anAbsentOptionalInputLeavesTheFieldOut() {
        assertEquals(json("{\"order_id\": \"o-1\"}"), build("{\"order_id\": \"${input.order_id}\", \"due_at\": \"${input.due_at}\"}", Map.of()));
    }

    @Test
    void aMissingValueInsideTextStopsTheBuild() {
        StepTemplate.MissingValue missing = assertThrows(StepTemplate.MissingValue.class,
                () -> build("{\"title\": \"счёт ${steps.invoice.result.number}\"}", Map.of()));
        assertEquals("${steps.invoice.result.number}", missing.reference().toString());
    }

    @Test
    void textWithoutReferencesIsKeptAsItIs() {
        assertEquals(json("{\"reason\": \"$ {not one}\", \"n\": 5}"), build("{\"reason\": \"$ {not one}\", \"n\": 5}", Map.of()));
    }

    private static JsonObject build(String template, Map<StepTemplate.Reference, JsonValue> steps) {
        return StepTemplate.of(json(template)).build(r -> r.toInput() ? INPUT.get(r.field()) : steps.get(r));
    }

    private static JsonObject json(String text) {
        return (JsonObject) IJsonReader.read(text);
    }
}
