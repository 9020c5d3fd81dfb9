package dev.toolgate.target;

import jakarta.json.JsonObject;

import java.time.Instant;

/**
 * One attempt of one operation, as the target adapter sees it: only the recorded, canonical
 * payload travels, so nothing the agent says later can change what is sent.
 *
 * @param createdAt when the operation was first captured: stable across attempts, so a document
 *                  date derived from it does not move on retry
 */
public record Dispatch(String operationKey, String operation, int attempt, JsonObject payload, Instant createdAt) {
}
