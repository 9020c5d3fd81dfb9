package dev.toolgate.gateway.edge;

import java.util.Optional;

/**
 * How an agent proves who it is at every door: {@code Authorization: Bearer <token>} (RFC 6750 §2.1). The
 * token is looked up by {@code access.AuthenticatedCallers}; each door answers its absence in its own form.
 */
public final class BearerToken {

    private BearerToken() {
    }

    /** The token of one {@code Authorization} value, if it is a bearer credential (the scheme in any case). */
    public static Optional<String> of(String authorization) {
        if (authorization == null) {
            return Optional.empty();
        }
        String value = authorization.strip();
        return value.regionMatches(true, 0, "Bearer ", 0, 7) ? Optional.of(value.substring(7).strip()) : Optional.empty();
    }
}
