package dev.toolgate.targets;

import jakarta.json.JsonObject;

import java.time.Instant;

/**
 * One attempt as the adapter sees it: only the recorded canonical payload travels, so nothing said later changes it.
 *
 * @param downstreamKey the operation key qualified by tenant, so two tenants' equal keys never meet at a target
 * @param createdAt     first capture, stable across attempts, so a document date derived from it does not move
 * @param objectId      the target's object as far as the journal knows it, or null
 */
public record Attempt(String downstreamKey, String operation, int attempt, JsonObject payload, Instant createdAt,
                       String objectId, String traceId, EffectGate gate) {

    /** An attempt outside the journal (an adapter's contract test): nothing fences it. */
    public Attempt(String downstreamKey, String operation, int attempt, JsonObject payload, Instant createdAt,
                    String objectId, String traceId) {
        this(downstreamKey, operation, attempt, payload, createdAt, objectId, traceId, EffectGate.unguarded());
    }

    public static String downstreamKey(String tenant, String operationKey) {
        return tenant + "/" + operationKey;
    }
}
