package dev.toolgate.targets.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The blocks of one PEM file (RFC 7468); text around them is ignored, as in distributions' commented {@code ca-bundle.crt}. */
final class PemFile {

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    // the algorithms a PKCS#8 key of an nginx, Apache or IIS front is made with
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS");

    private record Block(String label, byte[] der) {
    }

    private final String setting;
    private final Path file;
    private final List<Block> blocks;

    private PemFile(String setting, Path file, List<Block> blocks) {
        this.setting = setting;
        this.file = file;
        this.blocks = blocks;
    }

    static PemFile read(String setting, Path file) {
        String text;
        try {
            // Latin-1 reads any bytes: a DER file given by mistake is then reported as "not PEM"
            text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new TlsMisconfigured(setting, "cannot read " + file, e);
        }
        List<Block> blocks = new ArrayList<>();
        Matcher matcher = BLOCK.matcher(text);
        while (matcher.find()) {
            try {
                blocks.add(new Block(matcher.group(1), Base64.getMimeDecoder().decode(matcher.group(2))));
            } catch (IllegalArgumentException e) {
                throw new TlsMisconfigured(setting, file + " has a " + matcher.group(1) + " block that is not base64", e);
            }
        }
        if (blocks.isEmpty()) {
            throw new TlsMisconfigured(setting, file + " is not PEM (no -----BEGIN …----- block)");
        }
        return new PemFile(setting, file, blocks);
    }

    List<X509Certificate> certificates() {
        List<X509Certificate> certificates = new ArrayList<>();
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            for (Block block : blocks) {
                if (block.label().equals("CERTIFICATE")) {
                    certificates.add((X509Certificate) x509.generateCertificate(new ByteArrayInputStream(block.der())));
                }
            }
        } catch (CertificateException e) {
            throw new TlsMisconfigured(setting, file + " holds a CERTIFICATE block that is not an X.509 certificate", e);
        }
        if (certificates.isEmpty()) {
            throw new TlsMisconfigured(setting, file + " holds no certificate (no -----BEGIN CERTIFICATE----- block)");
        }
        return certificates;
    }

    /** The one unencrypted PKCS#8 key (RFC 5208, {@code BEGIN PRIVATE KEY}); other key forms are named in the refusal. */
    PrivateKey privateKey() {
        for (Block block : blocks) {
            switch (block.label()) {
                case "PRIVATE KEY" -> {
                    return pkcs8(block.der());
                }
                case "RSA PRIVATE KEY", "EC PRIVATE KEY" -> throw new TlsMisconfigured(setting, file + " is a " + block.label()
                        + " (PKCS#1/SEC 1); convert it: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem");
                case "ENCRYPTED PRIVATE KEY" -> throw new TlsMisconfigured(setting, file + " is encrypted; give the key and "
                        + "certificate as a PKCS#12 keystore with its password instead (tls.client-keystore)");
                default -> {
                    // a certificate next to the key is fine: nginx users often keep both in one file
                }
            }
        }
        throw new TlsMisconfigured(setting, file + " holds no private key (no -----BEGIN PRIVATE KEY----- block)");
    }

    private PrivateKey pkcs8(byte[] der) {
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException notThisAlgorithm) {
                // PKCS#8 names its algorithm inside; the JDK only reads it through the matching factory
            }
        }
        throw new TlsMisconfigured(setting, file + " holds a PRIVATE KEY that is not RSA, EC or EdDSA PKCS#8");
    }
}
