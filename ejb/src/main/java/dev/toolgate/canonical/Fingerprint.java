package dev.toolgate.canonical;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of canonical JSON, lower-case hex: the form {@code sha256sum} prints. */
public final class Fingerprint {

    private Fingerprint() {
    }

    public static String of(String canonicalJson) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha256.digest(canonicalJson.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform ships SHA-256", e);
        }
    }
}
