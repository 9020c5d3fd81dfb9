package dev.toolgate.gateway.console;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Cross-site request forgery, refused twice over: every state-changing request must carry the session's
 * secret token in its form (a page of another site cannot read it), and must not come from another
 * origin by the browser's own word ({@code Origin}, {@code Sec-Fetch-Site}), when the browser gives it.
 * The session cookie is also SameSite=Lax, so a cross-site POST arrives without a session at all.
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

    /**
     * Why a state-changing request is refused, or null when it may go on.
     *
     * @param expected the session's token (null: the session has none)
     * @param sent the form's token
     * @param origin the {@code Origin} header (null when the browser sent none)
     * @param fetchSite the {@code Sec-Fetch-Site} header (null when the browser sent none)
     * @param ownOrigin this request's own scheme://host[:port]
     */
    static String refusal(String expected, String sent, String origin, String fetchSite, String ownOrigin) {
        if (fetchSite != null && !fetchSite.equals("same-origin")) {
            return "the browser says this request came from another site (" + fetchSite + ")";
        }
        if (origin != null && !sameOrigin(origin, ownOrigin)) {
            return "the request came from another origin";
        }
        if (expected == null || sent == null
                || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8))) {
            return "the form's security token is missing or stale: reload the page and try again";
        }
        return null;
    }

    private static boolean sameOrigin(String origin, String own) {
        try {
            URI a = URI.create(origin);
            URI b = URI.create(own);
            return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme())
                    && a.getHost() != null && a.getHost().equalsIgnoreCase(b.getHost()) && port(a) == port(b);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static int port(URI uri) {
        return uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }
}
