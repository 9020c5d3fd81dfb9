package dev.toolgate.targets;

import jakarta.json.JsonObject;

import java.time.Instant;

/**
 * One attempt of one operation, as the target adapter sees it: only the recorded, canonical
 * payload travels, so nothing the agent says later can change what is sent.
 *
 * @param downstreamKey what the target stores to find the effect again: the operation key qualified
 *                      by its tenant, so two tenants' equal keys never meet at a shared target
 * @param createdAt     when the operation was first captured: stable across attempts, so a document
 *                      date derived from it does not move on retry
 * @param objectId      the target's object as far as the journal knows it (e.g. a pending payment), or null
 * @param traceId       the W3C trace id of the operation, for targets whose contract can carry it
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
