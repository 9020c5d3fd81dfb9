package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

class RequestStatesTest {

    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final Instant NOW = Instant.parse("2026-12-04T08:00:00Z");
    private static final RequestStates.Claims CLAIMS = new RequestStates.Claims("agent-a", "t:payment.create:o-1:v1", "f".repeat(64), 0,
            NOW.plusSeconds(900));

    @Test
    void readsBackWhatItIssued() {
        assertEquals(Optional.of(CLAIMS), RequestStates.read(SECRET, RequestStates.issue(SECRET, CLAIMS)));
    }

    @Test
    void refusesATamperedState() {
        String state = RequestStates.issue(SECRET, CLAIMS);
        String payload = new String(Base64.getUrlDecoder().decode(state.substring(0, state.indexOf('.'))), StandardCharsets.UTF_8);
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(payload.replace("agent-a", "agent-b")
                .getBytes(StandardCharsets.UTF_8)) + state.substring(state.indexOf('.'));
        assertEquals(Optional.empty(), RequestStates.read(SECRET, forged));
        assertEquals(Optional.empty(), RequestStates.read(SECRET, state.substring(0, state.length() - 2)));
        assertEquals(Optional.empty(), RequestStates.read(SECRET, "not a state"));
    }

    @Test
    void refusesAStateIssuedWithAnotherSecret() {
        assertEquals(Optional.empty(), RequestStates.read("another secret, 32 bytes long...".getBytes(StandardCharsets.US_ASCII),
                RequestStates.issue(SECRET, CLAIMS)));
    }

    @Test
    void allowsTheRetryItWasIssuedFor() {
        assertEquals(Optional.empty(), RequestStates.refusal(CLAIMS, "agent-a", CLAIMS.key(), CLAIMS.fingerprint(), 0, NOW));
    }

    @Test
    void refusesAnotherPrincipalAnotherKeyOrOtherArguments() {
        assertTrue(RequestStates.refusal(CLAIMS, "agent-b", CLAIMS.key(), CLAIMS.fingerprint(), 0, NOW).isPresent());
        assertTrue(RequestStates.refusal(CLAIMS, "agent-a", "t:payment.create:o-2:v1", CLAIMS.fingerprint(), 0, NOW).isPresent());
        assertTrue(RequestStates.refusal(CLAIMS, "agent-a", CLAIMS.key(), "e".repeat(64), 0, NOW).isPresent());
    }

    @Test
    void refusesAnExpiredState() {
        assertTrue(RequestStates.refusal(CLAIMS, "agent-a", CLAIMS.key(), CLAIMS.fingerprint(), 0, CLAIMS.expires()).isPresent());
    }

    @Test
    void refusesAStateOnceAnAttemptWasMadeSoItLetsAtMostOneGoOut() {
        assertTrue(RequestStates.refusal(CLAIMS, "agent-a", CLAIMS.key(), CLAIMS.fingerprint(), 1, NOW).get().contains("used"));
    }
}
