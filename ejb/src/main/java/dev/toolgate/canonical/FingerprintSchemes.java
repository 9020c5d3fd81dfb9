package dev.toolgate.canonical;

/**
 * Which canonicalization produced a stored fingerprint. A release that changes the canonical form must not turn
 * every retry of an earlier operation into {@code idempotency-key-reused}, so a fingerprint carries its scheme, as a
 * password hash carries its algorithm: scheme 1 bare, scheme N as {@code sN:<hex>}. A scheme this release does not
 * know (a newer one's, seen after a rollback) is never called changed. {@code FingerprintSchemesTest} pins scheme 1.
 */
public final class FingerprintSchemes {

    public static final int CURRENT = 1;
    private FingerprintSchemes() {
    }

    public enum Match {
        SAME,
        DIFFERENT,
        /** The row's scheme is unknown to this release (a newer one wrote it): only an instance of that release can tell. */
        UNCHECKABLE
    }

    /** The scheme of a stored fingerprint: 1 when bare, N for {@code sN:…}; 0 when it is neither. */
    public static int schemeOf(String stored) {
        if (!stored.startsWith("s")) {
            return 1;
        }
        int colon = stored.indexOf(':');
        try {
            return colon > 1 ? Integer.parseInt(stored.substring(1, colon)) : 0;
        } catch (NumberFormatException notAScheme) {
            return 0;
        }
    }

    public static Match match(String stored, String request) {
        int scheme = schemeOf(stored);
        if (scheme == CURRENT) {
            return stored.equals(request) ? Match.SAME : Match.DIFFERENT;
        }
        // the only scheme there is: any other is a newer release's, which this one cannot recompute
        return Match.UNCHECKABLE;
    }
}
