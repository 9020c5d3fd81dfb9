package dev.toolgate.gateway.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Random;

import org.junit.jupiter.api.Test;

class LinksTest {

    private final Links links = new Links(URI.create("https://gw.example:8443/api/"));

    @Test
    void aPlainKeyIsItsOwnSegment() {
        assertEquals(URI.create("https://gw.example:8443/api/v1/operations/prod:invoice.create:order-48291:v1"),
                links.operation("prod:invoice.create:order-48291:v1"));
        assertEquals("/api/v1/operations/order-48291", links.operationPath("order-48291"));
        assertEquals("/api/v1/processes/fulfil-7", links.processPath("fulfil-7"));
        assertEquals(URI.create("https://gw.example:8443/api/v1/processes/fulfil-7"), links.process("fulfil-7"));
    }

    @Test
    void whatAPathSegmentCannotHoldIsPercentEncoded() {
        assertEquals("a%2Fb", Links.segment("a/b"));
        assertEquals("a%25b", Links.segment("a%b"), "a percent sign is data, never an escape");
        assertEquals("x%3Fy%23z%5C%22%3C%3E%5B%5D%7B%7D%7C%5E%60", Links.segment("x?y#z\\\"<>[]{}|^`"));
        assertEquals("!$&'()*+,;=:@-._~", Links.segment("!$&'()*+,;=:@-._~"), "sub-delims, ':' and '@' stay");
        assertEquals("%D0%BA%D0%BB%D1%8E%D1%87", Links.segment("ключ"), "UTF-8, byte by byte");
    }

    @Test
    void everyVisibleAsciiKeyMakesALinkThatNamesItExactly() {
        Random random = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder key = new StringBuilder();
            for (int c = 1 + random.nextInt(40); c > 0; c--) {
                key.append((char) (0x21 + random.nextInt(0x7e - 0x21 + 1)));
            }
            URI link = links.operation(key.toString());
            String path = link.getRawPath();
            assertTrue(path.startsWith("/api/v1/operations/"), path);
            String segment = path.substring("/api/v1/operations/".length());
            assertTrue(segment.indexOf('/') < 0, segment);
            assertEquals("/api/v1/operations/" + key, link.getPath(), "decodes to the key");
            assertEquals(path, links.operationPath(key.toString()));
            assertEquals(null, link.getRawQuery(), key.toString());
            assertEquals(null, link.getRawFragment(), key.toString());
        }
    }

    @Test
    void aBaseWithoutItsTrailingSlashGetsOne() {
        Links bare = new Links(URI.create("http://localhost:8080/api"));
        assertEquals(URI.create("http://localhost:8080/api/v1/operations/k"), bare.operation("k"));
        assertEquals("/api/v1/operations/k", bare.operationPath("k"));
    }
}
