package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/** What {@code toolgate.mcp.request-state-secret} gives the requestState's HMAC ({@link ApprovalRounds#secretOf}). */
class RequestStateSecretTest {

    @Test
    void withoutASecretEachProcessDrawsThirtyTwoRandomBytes() {
        byte[] one = ApprovalRounds.secretOf(Optional.empty());
        byte[] other = ApprovalRounds.secretOf(Optional.of("  "));
        assertEquals(32, one.length);
        assertEquals(32, other.length);
        assertFalse(Arrays.equals(one, other));
    }

    @Test
    void aConfiguredSecretIsItsBase64Bytes() {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) 7);
        assertArrayEquals(key, ApprovalRounds.secretOf(Optional.of(" " + Base64.getEncoder().encodeToString(key) + "\n")));
    }

    @Test
    void aSecretThatIsNotBase64StopsTheStartWithoutSayingTheValue() {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> ApprovalRounds.secretOf(Optional.of("not base64 at all!")));
        assertTrue(refused.getMessage().contains("toolgate.mcp.request-state-secret"), refused.getMessage());
        assertFalse(refused.getMessage().contains("not base64 at all"), refused.getMessage());
    }

    @Test
    void aShortSecretStopsTheStart() {
        String sixteen = Base64.getEncoder().encodeToString(new byte[16]);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> ApprovalRounds.secretOf(Optional.of(sixteen)));
        assertTrue(refused.getMessage().contains("16 bytes"), refused.getMessage());
    }
}
