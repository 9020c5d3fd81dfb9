package dev.toolgate.simulator.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.List;

import javax.net.ssl.SSLContext;

/**
 * One run's certificates and the files a gateway or a test client is handed: {@code ca.pem} (the trust
 * bundle), {@code client.pem} + {@code client-key.pem} (a client certificate chain and its PKCS#8 key)
 * and {@code client.p12} (the same as PKCS#12, password {@link #CLIENT_KEYSTORE_PASSWORD}).
 */
public final class SimulatorTls {

    /** The test client keystore's password: a demo value, like the simulators' other credentials. */
    public static final String CLIENT_KEYSTORE_PASSWORD = "demo-only-keystore-password";
    /** The only name the misnamed origin's certificate carries: reserved by RFC 2606, it never resolves. */
    public static final String MISNAMED_HOST = "elsewhere.invalid";

    private final Issued server;
    private final Issued misnamed;
    private final Issued client;
    private final Path folder;

    private SimulatorTls(Issued server, Issued misnamed, Issued client, Path folder) {
        this.server = server;
        this.misnamed = misnamed;
        this.client = client;
        this.folder = folder;
    }

    /** A fresh CA and its certificates, with the files written to a new temporary folder. */
    public static SimulatorTls create() throws IOException {
        CertificateAuthority ca = CertificateAuthority.create("Toolgate simulators test CA");
        SimulatorTls tls = new SimulatorTls(ca.issueServer(List.of("localhost"), List.of("127.0.0.1")),
                ca.issueServer(List.of(MISNAMED_HOST), List.of()), ca.issueClient("toolgate-gateway"),
                Files.createTempDirectory("toolgate-simulator-tls"));
        try {
            Files.writeString(tls.caBundle(), Issued.pem("CERTIFICATE", ca.certificate().getEncoded()), StandardCharsets.US_ASCII);
            Files.writeString(tls.clientChain(), tls.client.chainPem(), StandardCharsets.US_ASCII);
            Files.writeString(tls.clientKey(), tls.client.keyPem(), StandardCharsets.US_ASCII);
            tls.client.writePkcs12(tls.clientKeystore(), CLIENT_KEYSTORE_PASSWORD.toCharArray());
        } catch (GeneralSecurityException e) {
            throw new IOException("could not encode the simulators' certificates", e);
        }
        return tls;
    }

    public Path caBundle() {
        return folder.resolve("ca.pem");
    }

    public Path clientChain() {
        return folder.resolve("client.pem");
    }

    public Path clientKey() {
        return folder.resolve("client-key.pem");
    }

    public Path clientKeystore() {
        return folder.resolve("client.p12");
    }

    /** The folder {@link #create} wrote, with its files: a test run starts dozens of simulators, each with its own. */
    public void delete() {
        try (java.util.stream.Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException leftBehind) {
            // a few kilobytes in the temporary folder, not a reason to fail a stop
        }
    }

    /** The HTTPS origins' context: a certificate for {@code localhost} and {@code 127.0.0.1}. */
    public SSLContext serverContext() {
        return server.context(null);
    }

    /** The same certificate, and a client certificate from this CA is asked for. */
    public SSLContext mutualContext() {
        return server.context(server.issuer());
    }

    /** A certificate from the same CA for another host: trusted issuer, wrong name. */
    public SSLContext misnamedContext() {
        return misnamed.context(null);
    }
}
