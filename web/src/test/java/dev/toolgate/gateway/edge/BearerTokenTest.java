package dev.toolgate.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BearerTokenTest {

    @Test
    void readsABearerTokenInAnyCaseOfItsScheme() {
        assertEquals("abc", BearerToken.of(" bearer abc ").orElseThrow());
        assertEquals("abc", BearerToken.of("Bearer abc").orElseThrow());
        assertTrue(BearerToken.of("Basic abc").isEmpty());
        assertTrue(BearerToken.of(null).isEmpty());
    }
}
