package dev.toolgate.lifecycle.decisions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

class OutgoingCheckTest {

    private static final JsonObject RECORDED = Json.createObjectBuilder().add("payment_id", "p1").add("amount_minor", 4000)
            .add("currency", "RUB").build();

    @Test
    void letsTheRecordedPayloadGoOut() {
        assertNull(OutgoingCheck.refusal(attempt(OperationStatus.STARTED, List.of()), RECORDED));
    }

    @Test
    void refusesAChangedAmount() {
        JsonObject changed = Json.createObjectBuilder(RECORDED).add("amount_minor", 9000).build();
        assertEquals("payload field amount_minor differs from the journal's", OutgoingCheck.refusal(attempt(OperationStatus.STARTED, List.of()), changed));
    }

    @Test
    void refusesAnAddedField() {
        JsonObject added = Json.createObjectBuilder(RECORDED).add("recipient", "someone else").build();
        assertTrue(OutgoingCheck.refusal(attempt(OperationStatus.STARTED, List.of()), added) != null);
    }

    @Test
    void acceptsWithheldFieldsOnlyWhenPresentAndNamed() {
        JsonObject withInn = Json.createObjectBuilder(RECORDED).add("counterparty_inn", "500100732259").build();
        assertNull(OutgoingCheck.refusal(attempt(OperationStatus.STARTED, List.of("counterparty_inn")), withInn));
        assertTrue(OutgoingCheck.refusal(attempt(OperationStatus.STARTED, List.of("counterparty_inn")), RECORDED) != null);
    }

    @Test
    void refusesAnAttemptThatIsNotLeased() {
        for (OperationStatus status : List.of(OperationStatus.PENDING_APPROVAL, OperationStatus.UNKNOWN, OperationStatus.SUCCEEDED)) {
            assertTrue(OutgoingCheck.refusal(attempt(status, List.of()), RECORDED) != null, status.name());
        }
    }

    private static OperationView attempt(OperationStatus status, List<String> withheld) {
        Instant now = Instant.now();
        return new OperationView("acme", "k", "agent-a", "payment.refund", "yookassa", status, "a".repeat(64), RECORDED, withheld,
                null, null, null, 1, now.plusSeconds(30), 1, null, 0, null, null, now, now, null, null, null, true, "approval-1");
    }
}
