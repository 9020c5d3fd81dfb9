package dev.toolgate.gateway.console;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Cross-site request forgery, refused twice over: a state-changing request must carry the session's token in its
 * form, and must not come from another origin by the browser's word ({@code Origin}, {@code Sec-Fetch-Site}).
 */
final class Csrf {

    static final String FIELD = "csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Csrf() {
    }

    static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Why a state-changing request is refused, or null; {@code host} is where the browser believes it is, also behind a proxy. */
    static String refusal(String expected, String sent, String origin, String fetchSite, String host) {
        if (fetchSite != null && !fetchSite.equals("same-origin")) {
            return "the browser says this request came from another site (" + fetchSite + ")";
        }
        if (origin != null && !sameHost(origin, host)) {
            return "the request came from another origin";
        }
        if (expected == null || sent == null
                || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8))) {
            return "the form's security token is missing or stale: reload the page and try again";
        }
        return null;
    }

    /** Same host and port; the scheme is not compared: behind a TLS-ending proxy the browser's https is the server's http. */
    static boolean sameHost(String origin, String host) {
        if (host == null || host.isBlank()) {
            return false;
        }
        try {
            URI from = URI.create(origin);
            URI to = URI.create(from.getScheme() + "://" + host.strip());
            return from.getHost() != null && from.getHost().equalsIgnoreCase(to.getHost()) && port(from) == port(to);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static int port(URI uri) {
        return uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }
}
