package dev.toolgate.operation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import java.util.List;

class OperationStatusTest {

    @Test
    void everyStatusIsStoredInLowerCaseAndReadBackAsItself() {
        assertEquals(List.of("pending_approval", "started", "succeeded", "failed_retryable", "failed_final", "unknown"),
                List.of(OperationStatus.values()).stream().map(OperationStatus::dbName).toList(),
                "the schema's CHECK constraint spells them so");
        for (OperationStatus status : OperationStatus.values()) {
            assertEquals(status, OperationStatus.fromDb(status.dbName()));
        }
        assertEquals("lease_expired", EventKind.LEASE_EXPIRED.dbName());
    }

    @Test
    void anotherSpellingIsReadAndAnUnknownNameRefused() {
        assertEquals(OperationStatus.FAILED_FINAL, OperationStatus.fromDb("FAILED_FINAL"));
        assertThrows(IllegalArgumentException.class, () -> OperationStatus.fromDb("done"));
    }
}
