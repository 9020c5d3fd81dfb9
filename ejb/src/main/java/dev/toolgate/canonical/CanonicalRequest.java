package dev.toolgate.canonical;

import jakarta.json.JsonObject;

import java.util.List;

/**
 * A validated command in canonical form.
 *
 * @param payload        normalized significant fields: what the target receives
 * @param storedPayload  {@code payload} without the sensitive fields: what the journal keeps
 * @param withheldFields the sensitive fields the caller sent, which only a caller can send again
 * @param fingerprint    SHA-256 of the canonical JSON of payload + operation + target, flat
 */
public record CanonicalRequest(String operation, String target, JsonObject payload, JsonObject storedPayload,
                               List<String> withheldFields, String fingerprint) {

    public String storedPayloadJson() {
        return CanonicalJson.write(storedPayload);
    }
}
