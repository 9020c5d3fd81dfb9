package dev.toolgate.targets.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.simulator.tls.SimulatorTls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import javax.net.ssl.SSLContext;

/** A TLS setting that cannot be used stops its target with the setting named; it never falls back to default trust. */
class TlsSettingsTest {

    private static final String P = "toolgate.target.1c.tls.";
    private static SimulatorTls files;

    @TempDir
    Path folder;

    @BeforeAll
    static void certificates() throws Exception {
        files = SimulatorTls.create();
    }

    @AfterAll
    static void removeCertificates() {
        files.delete();
    }

    @Test
    void withoutSettingsUsesTheJdkDefault() throws Exception {
        assertEquals(SSLContext.getDefault(), settings(Map.of()).context());
    }

    @Test
    void readsABundleWithTextAroundItsCertificates() throws Exception {
        Path bundle = folder.resolve("bundle.pem");
        Files.writeString(bundle, "# company root\n" + Files.readString(files.caBundle()) + "\n# trailing note\n"
                + Files.readString(files.clientChain()));
        assertEquals("TLS", settings(Map.of(P + "trust-bundle", bundle.toString())).context().getProtocol());
    }

    @Test
    void refusesAMissingBundleNamingTheSetting() {
        assertRefused(P + "trust-bundle", Map.of(P + "trust-bundle", folder.resolve("absent.pem").toString()));
    }

    @Test
    void refusesABundleThatIsNotPem() throws Exception {
        Path der = Files.write(folder.resolve("ca.der"), new byte[] {0x30, (byte) 0x82, 0x01, 0x0a});
        String message = assertRefused(P + "trust-bundle", Map.of(P + "trust-bundle", der.toString()));
        assertTrue(message.contains("is not PEM"), message);
    }

    @Test
    void refusesABundleWithoutACertificate() {
        String message = assertRefused(P + "trust-bundle", Map.of(P + "trust-bundle", files.clientKey().toString()));
        assertTrue(message.contains("holds no certificate"), message);
    }

    @Test
    void refusesACertificateBlockThatIsNotACertificate() throws Exception {
        Path bad = Files.writeString(folder.resolve("bad.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        assertRefused(P + "trust-bundle", Map.of(P + "trust-bundle", bad.toString()));
    }

    @Test
    void refusesAClientCertificateWithoutItsKey() {
        assertRefused(P + "client-key", Map.of(P + "client-certificate", files.clientChain().toString()));
    }

    @Test
    void refusesBothAPemPairAndAKeystore() {
        assertRefused(P + "client-keystore", Map.of(P + "client-certificate", files.clientChain().toString(),
                P + "client-key", files.clientKey().toString(), P + "client-keystore", files.clientKeystore().toString()));
    }

    @Test
    void namesTheConversionForAPkcs1Key() throws Exception {
        Path pkcs1 = Files.writeString(folder.resolve("rsa.pem"), "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
        String message = assertRefused(P + "client-key", Map.of(P + "client-certificate", files.clientChain().toString(),
                P + "client-key", pkcs1.toString()));
        assertTrue(message.contains("openssl pkcs8 -topk8"), message);
    }

    @Test
    void refusesAKeystoreWithTheWrongPasswordWithoutPrintingIt() {
        String message = assertRefused(P + "client-keystore", Map.of(P + "client-keystore", files.clientKeystore().toString(),
                P + "client-keystore-password", "wrong-password-123"));
        assertFalse(message.contains("wrong-password-123"), message);
    }

    @Test
    void neverPrintsTheKeystorePassword() {
        TlsSettings tls = settings(Map.of(P + "client-keystore", files.clientKeystore().toString(),
                P + "client-keystore-password", SimulatorTls.CLIENT_KEYSTORE_PASSWORD));
        assertFalse(tls.toString().contains(SimulatorTls.CLIENT_KEYSTORE_PASSWORD), tls.toString());
    }

    private static TlsSettings settings(Map<String, String> values) {
        Map<String, String> copy = new HashMap<>(values);
        return TlsSettings.from(name -> Optional.ofNullable(copy.get(name)), "1c");
    }

    /** The refusal's message, which must start with the setting to change. */
    private static String assertRefused(String setting, Map<String, String> values) {
        TlsMisconfigured refused = assertThrows(TlsMisconfigured.class, () -> settings(values).context());
        assertTrue(refused.getMessage().startsWith(setting + ":"), refused.getMessage());
        return refused.getMessage();
    }
}
