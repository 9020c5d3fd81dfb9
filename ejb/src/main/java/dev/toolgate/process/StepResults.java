package dev.toolgate.process;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.JsonValue;

import java.util.Map;
import java.util.Set;

/** The fields each operation's stored result holds (docs/targets.md), and sample values to try declarations with. */
final class StepResults {

    private static final JsonValue GUID = JSON.createValue("00000000-0000-0000-0000-000000000001");

    private static final Map<String, Set<String>> FIELDS = Map.of(
            "invoice.create", Set.of("number", "posted"),
            "invoice.post", Set.of("number", "posted"),
            "invoice.cancel", Set.of("status"),
            "crm.deal.create", Set.of(),
            "crm.deal.lose", Set.of("stage_id"),
            "payment.create", Set.of("status", "amount"),
            "payment.refund", Set.of("status", "amount", "payment_id"));

    private static final Map<String, JsonValue> SAMPLES = Map.of(
            "number", JSON.createValue("0000-000001"),
            "posted", JsonValue.TRUE,
            "status", JSON.createValue("succeeded"),
            "stage_id", JSON.createValue("LOSE"),
            "payment_id", GUID,
            "amount", JSON.createObjectBuilder().add("value", "1.00").add("currency", "RUB").build());

    private StepResults() {
    }

    static Set<String> fields(String operation) {
        return FIELDS.getOrDefault(operation, Set.of());
    }

    /** A target object id of the shape the target's ids have: a GUID at 1C and YooKassa, a number at Bitrix24. */
    static JsonValue sampleObjectId(String target) {
        return "bitrix24".equals(target) ? JSON.createValue("1") : GUID;
    }

    static JsonValue sample(String field) {
        return SAMPLES.getOrDefault(field, JSON.createValue("x"));
    }
}
