package dev.toolgate.canonical;

/**
 * Which canonicalization produced a stored fingerprint, and whether a retry can be compared with it. A release that
 * changes the canonical form or the catalog's significant fields must not turn every retry of an operation captured
 * before it into {@code idempotency-key-reused}, so a fingerprint carries its scheme, as a password hash carries its
 * algorithm: scheme 1 bare (64 hex digits), a later scheme N as {@code sN:<hex>}. A retry is compared under the row's
 * scheme; one this release does not know (a newer release's, seen during a rollback) is never called changed.
 * {@code FingerprintSchemesTest} pins scheme 1's output, so a change that would alter it fails the build until it
 * comes as a new scheme.
 */
public final class FingerprintSchemes {

    /** The scheme this release writes. */
    public static final int CURRENT = 1;
    private FingerprintSchemes() {
    }

    /** How a retry's fingerprint stands against the stored one. */
    public enum Match {
        /** The same payload under the row's scheme. */
        SAME,
        /** Another payload under the row's scheme: the key was reused. */
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

    /** {@code request}'s fingerprint (this release's scheme) against the row's {@code stored} one. */
    public static Match match(String stored, String request) {
        int scheme = schemeOf(stored);
        if (scheme == CURRENT) {
            return stored.equals(request) ? Match.SAME : Match.DIFFERENT;
        }
        // the only scheme there is: any other is a newer release's, which this one cannot recompute
        return Match.UNCHECKABLE;
    }
}
