package dev.toolgate.gateway.rest;

import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The links in the REST answers ({@code Location}, a record's {@code self}), from the request's base URI. Made
 * by hand, not by a {@code UriBuilder}, whose template and URI parsing cost a replay more than its one database read.
 * A key is percent-encoded as one RFC 3986 path segment (a {@code /} in it is {@code %2F}, a {@code %} is {@code %25}).
 */
final class Links {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final String base;
    private final String basePath;

    /** {@code base}: the application's base URI ({@code …/api/}), from the request. */
    Links(URI base) {
        String uri = base.toString();
        String path = base.getRawPath() == null ? "" : base.getRawPath();
        this.base = uri.endsWith("/") ? uri : uri + "/";
        this.basePath = path.endsWith("/") ? path : path + "/";
    }

    URI operation(String key) {
        return URI.create(base + "v1/operations/" + segment(key));
    }

    String operationPath(String key) {
        return basePath + "v1/operations/" + segment(key);
    }

    URI process(String key) {
        return URI.create(base + "v1/processes/" + segment(key));
    }

    String processPath(String key) {
        return basePath + "v1/processes/" + segment(key);
    }

    /** {@code text} as one path segment: unreserved, sub-delims, {@code :} and {@code @} as they are, every other byte of its UTF-8 as %XX. */
    static String segment(String text) {
        StringBuilder out = null;
        byte[] bytes = null;
        for (int i = 0; i < text.length(); i++) {
            if (!isPathChar(text.charAt(i))) {
                bytes = text.getBytes(StandardCharsets.UTF_8);
                out = new StringBuilder(bytes.length * 3);
                break;
            }
        }
        if (out == null) {
            return text;
        }
        for (byte b : bytes) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && isPathChar(c)) {
                out.append(c);
            } else {
                out.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
            }
        }
        return out.toString();
    }

    /** RFC 3986 pchar, less pct-encoded: unreserved / sub-delims / ":" / "@". */
    private static boolean isPathChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~!$&'()*+,;=:@".indexOf(c) >= 0;
    }
}
