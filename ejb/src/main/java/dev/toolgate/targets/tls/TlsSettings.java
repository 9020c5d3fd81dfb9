package dev.toolgate.targets.tls;

import org.eclipse.microprofile.config.Config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * One target's TLS, under {@code toolgate.target.<system>.tls.} (docs/tls.md): a PEM trust bundle and a client
 * certificate as PEM files or PKCS#12. Nothing set: the JDK's default trust and no client certificate.
 */
public record TlsSettings(String prefix, Path trustBundle, Path clientCertificate, Path clientKey, Path clientKeystore,
                          String clientKeystorePassword) {

    public static TlsSettings from(Config config, String system) {
        return from(name -> config.getOptionalValue(name, String.class), system);
    }

    /** An incomplete or ambiguous client identity is refused here. */
    public static TlsSettings from(Function<String, Optional<String>> values, String system) {
        String p = "toolgate.target." + system + ".tls.";
        Function<String, Path> path = name -> values.apply(p + name).filter(v -> !v.isBlank()).map(Path::of).orElse(null);
        TlsSettings tls = new TlsSettings(p, path.apply("trust-bundle"), path.apply("client-certificate"),
                path.apply("client-key"), path.apply("client-keystore"),
                values.apply(p + "client-keystore-password").orElse(""));
        if ((tls.clientCertificate == null) != (tls.clientKey == null)) {
            throw new TlsMisconfigured(p + (tls.clientKey == null ? "client-key" : "client-certificate"),
                    "required with " + p + (tls.clientKey == null ? "client-certificate" : "client-key"));
        }
        if (tls.clientCertificate != null && tls.clientKeystore != null) {
            throw new TlsMisconfigured(p + "client-keystore", "set either it or client-certificate + client-key, not both");
        }
        return tls;
    }

    /** Built from the files each time, so call it once per client. */
    public SSLContext context() {
        try {
            if (trustBundle == null && clientCertificate == null && clientKeystore == null) {
                return SSLContext.getDefault();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers(), trustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no TLS context", e);
        }
    }

    /**
     * Replaces the default trust: an operator who names a company CA for a target means that CA. Adding would let any
     * public CA vouch for an internal host, and hide a wrong bundle behind a public certificate.
     */
    private TrustManager[] trustManagers() throws GeneralSecurityException {
        if (trustBundle == null) {
            return null; // the JDK's default
        }
        List<X509Certificate> bundle = PemFile.read(prefix + "trust-bundle", trustBundle).certificates();
        KeyStore store = emptyStore();
        for (int i = 0; i < bundle.size(); i++) {
            store.setCertificateEntry("ca-" + i, bundle.get(i));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
        trust.init(store);
        return trust.getTrustManagers();
    }

    private KeyManager[] keyManagers() throws GeneralSecurityException {
        char[] password = clientKeystorePassword.toCharArray();
        KeyStore identity;
        if (clientCertificate != null) {
            List<X509Certificate> chain = PemFile.read(prefix + "client-certificate", clientCertificate).certificates();
            identity = emptyStore();
            identity.setKeyEntry("client", PemFile.read(prefix + "client-key", clientKey).privateKey(), password,
                    chain.toArray(new Certificate[0]));
        } else if (clientKeystore != null) {
            identity = pkcs12(password);
        } else {
            return null;
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(identity, password);
        return keys.getKeyManagers();
    }

    private KeyStore pkcs12(char[] password) throws GeneralSecurityException {
        String setting = prefix + "client-keystore";
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(clientKeystore)) {
            store.load(in, password);
        } catch (IOException e) { // a wrong password surfaces here too; the message never carries it
            throw new TlsMisconfigured(setting, "cannot open " + clientKeystore
                    + " as PKCS#12 with " + prefix + "client-keystore-password", e);
        }
        for (String alias : Collections.list(store.aliases())) {
            if (store.isKeyEntry(alias)) {
                return store;
            }
        }
        throw new TlsMisconfigured(setting, clientKeystore + " holds no private key entry");
    }

    private static KeyStore emptyStore() throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (IOException e) {
            throw new IllegalStateException("an empty keystore cannot fail to load", e);
        }
        return store;
    }

    /** Never prints the keystore password: settings end up in logs when something goes wrong. */
    @Override
    public String toString() {
        return "TlsSettings[trustBundle=" + trustBundle + ", clientCertificate=" + clientCertificate
                + ", clientKeystore=" + clientKeystore + "]";
    }
}
