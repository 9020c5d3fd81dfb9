package dev.toolgate.canonical;

/**
 * Which canonicalization produced a stored fingerprint, and whether a retry can be compared with it.
 *
 * <p>A fingerprint depends on the canonical form (key order, numbers, strings, dates) and on the catalog's
 * significant fields. A release that changes either must not turn every retry of an operation captured before it into
 * {@code idempotency-key-reused}: so a fingerprint carries its scheme, as a password hash carries its algorithm.
 * Scheme 1, the first, is stored bare (64 lower-case hex digits, as every row written so far holds it); a later scheme
 * N is stored as {@code sN:<hex>}. A release compares a retry under the scheme the row records: its own directly,
 * an older one it still knows by computing the retry's fingerprint that way, and one it does not know — written by a
 * newer release, seen by this one during a rollback — not at all: it says so rather than calling a payload changed.
 * {@code FingerprintSchemesTest} pins scheme 1's output for a fixed set of commands, so a change to the canonical form
 * or the catalog that would alter it fails the build until it comes as a new scheme.
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
        // this release writes the first and only scheme there is, so any other is a newer release's. The release that
        // brings scheme 2 keeps scheme 1 here and compares a scheme-1 row by recomputing the retry's fingerprint that
        // way; until a scheme can be recomputed it is never called different
        return Match.UNCHECKABLE;
    }
}
