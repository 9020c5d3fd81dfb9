package dev.toolgate.simulator.tls;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Base64;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A key and the certificate {@link CertificateAuthority} signed for it, in the forms servers and clients take. */
public record Issued(PrivateKey key, X509Certificate certificate, X509Certificate issuer) {

    /** A TLS context presenting this certificate; with {@code clientIssuer}, the client certificates it accepts. */
    public SSLContext context(X509Certificate clientIssuer) {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(keyStore(new char[0]), new char[0]);
            TrustManagerFactory trust = null;
            if (clientIssuer != null) {
                KeyStore trusted = KeyStore.getInstance("PKCS12");
                trusted.load(null, null);
                trusted.setCertificateEntry("client-ca", clientIssuer);
                trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(trusted);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("could not make a TLS context", e);
        }
    }

    /** The key and its chain as one PKCS#12 entry, what a Windows or IIS export (.pfx) holds. */
    public KeyStore keyStore(char[] password) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("client", key, password, new Certificate[] {certificate, issuer});
        return store;
    }

    /** The certificate then its issuer, as nginx's {@code ssl_certificate} file holds a chain. */
    public String chainPem() throws GeneralSecurityException {
        return pem("CERTIFICATE", certificate.getEncoded()) + pem("CERTIFICATE", issuer.getEncoded());
    }

    /** The private key as unencrypted PKCS#8 (RFC 5208), {@code -----BEGIN PRIVATE KEY-----}. */
    public String keyPem() {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    public void writePkcs12(Path file, char[] password) throws GeneralSecurityException, IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            keyStore(password).store(out, password);
        }
    }

    /** RFC 7468 text encoding: base64 in 64-character lines between the labels. */
    public static String pem(String label, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der);
        return "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n";
    }
}
