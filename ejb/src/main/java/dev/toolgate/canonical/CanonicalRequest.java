package dev.toolgate.canonical;

import jakarta.json.JsonObject;

import java.util.List;

/**
 * A validated command in canonical form.
 *
 * @param storedPayload  {@code payload} without the sensitive fields: what the journal keeps
 * @param withheldFields the sensitive fields sent, which only a caller can send again
 */
public record CanonicalRequest(String operation, String target, JsonObject payload, JsonObject storedPayload,
                               List<String> withheldFields, String fingerprint) {

    public String storedPayloadJson() {
        return CanonicalJson.write(storedPayload);
    }
}
