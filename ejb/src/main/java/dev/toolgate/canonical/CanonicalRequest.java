package dev.toolgate.canonical;

import jakarta.json.JsonObject;

/**
 * A validated command in canonical form.
 *
 * @param payload     normalized significant fields only (what the journal stores and the target receives)
 * @param payloadJson canonical JSON of {@code payload}
 * @param fingerprint SHA-256 of the canonical JSON of payload + operation + target, flat (DESIGN §1)
 */
public record CanonicalRequest(String operation, String target, JsonObject payload, String payloadJson,
                               String fingerprint) {
}
