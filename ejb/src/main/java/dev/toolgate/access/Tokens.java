package dev.toolgate.access;

import dev.toolgate.canonical.Fingerprint;

import java.security.SecureRandom;
import java.util.Base64;

/** Bearer tokens: 256 random bits, shown once, stored only as a SHA-256 digest. */
public final class Tokens {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Tokens() {
    }

    /** {@code tg_} marks the token's kind, so secret scanners can recognize a leaked one. */
    public static String generate() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return "tg_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    public static String digest(String token) {
        return Fingerprint.of(token);
    }
}
