package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.canonical.InvalidCommand;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code requestState} of an approval's multi-round-trip answer (2026-07-28 basic/patterns/mrtr), as pure
 * functions of a secret: an HMAC-SHA256 over the {@link Claims}. It is attacker-controlled input, accepted only while
 * every claim holds and no attempt has been made since it was issued: single use without a table of used states,
 * the journal's attempt count being the record of use.
 */
final class RequestStates {

    private static final Base64.Encoder ENCODE = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODE = Base64.getUrlDecoder();

    private RequestStates() {
    }

    record Claims(String principal, String key, String fingerprint, int attempts, Instant expires) {
    }

    static String issue(byte[] secret, Claims claims) {
        byte[] payload = JSON.createObjectBuilder().add("p", claims.principal()).add("k", claims.key()).add("f", claims.fingerprint())
                .add("a", claims.attempts()).add("e", claims.expires().getEpochSecond()).build().toString().getBytes(StandardCharsets.UTF_8);
        return ENCODE.encodeToString(payload) + "." + ENCODE.encodeToString(mac(secret, payload));
    }

    /** The claims of a state this secret issued, or empty for anything else (tampered, truncated, foreign). */
    static Optional<Claims> read(byte[] secret, String state) {
        int dot = state.indexOf('.');
        if (dot < 0 || state.length() > 4096) {
            return Optional.empty();
        }
        try {
            byte[] payload = DECODE.decode(state.substring(0, dot));
            if (!MessageDigest.isEqual(mac(secret, payload), DECODE.decode(state.substring(dot + 1)))) {
                return Optional.empty();
            }
            JsonObject claims = IJsonReader.read(new String(payload, StandardCharsets.UTF_8)).asJsonObject();
            return Optional.of(new Claims(((JsonString) claims.get("p")).getString(), ((JsonString) claims.get("k")).getString(),
                    ((JsonString) claims.get("f")).getString(), ((JsonNumber) claims.get("a")).intValue(),
                    Instant.ofEpochSecond(((JsonNumber) claims.get("e")).longValue())));
        } catch (IllegalArgumentException | InvalidCommand | ClassCastException | NullPointerException e) {
            return Optional.empty();
        }
    }

    /** Why {@code claims} do not allow this retry, or empty when they do. */
    static Optional<String> refusal(Claims claims, String principal, String key, String fingerprint, int attempts, Instant now) {
        if (!claims.principal().equals(principal) || !claims.key().equals(key)) {
            return Optional.of("requestState was issued for another principal or operation");
        }
        if (!claims.fingerprint().equals(fingerprint)) {
            return Optional.of("requestState was issued for other arguments");
        }
        if (!now.isBefore(claims.expires())) {
            return Optional.of("requestState has expired; call again without it");
        }
        return claims.attempts() == attempts ? Optional.empty() : Optional.of("requestState was used already; call again without it");
    }

    private static byte[] mac(byte[] secret, byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
