package dev.toolgate.lifecycle.decisions;

import dev.toolgate.operation.OperationStatus;
import jakarta.json.JsonObject;

import java.time.Instant;

/**
 * What one settling write puts on a row, decided by {@link AttemptOutcomes} and {@link LookupDecisions}.
 *
 * @param nextCheckAt when a failed_retryable row may be tried again, or an unknown one looked up; null otherwise
 */
public record Transition(OperationStatus status, String objectId, JsonObject result, String errorCode, Instant nextCheckAt) {
}
