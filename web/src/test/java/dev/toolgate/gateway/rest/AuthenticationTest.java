package dev.toolgate.gateway.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AuthenticationTest {

    @Test
    void aPublicPathIsKnownWithOrWithoutItsSlashes() {
        for (String path : new String[] {"health/live", "/health/live", "health/live/", "//health/live//"}) {
            assertTrue(Authentication.PUBLIC_PATHS.contains(Authentication.withoutEdgeSlashes(path)), path);
        }
        assertEquals("", Authentication.withoutEdgeSlashes("///"));
        assertEquals("", Authentication.withoutEdgeSlashes(""));
        assertEquals("v1/operations/a/b", Authentication.withoutEdgeSlashes("/v1/operations/a/b/"), "inner slashes stay");
    }
}
