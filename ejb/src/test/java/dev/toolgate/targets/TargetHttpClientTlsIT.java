package dev.toolgate.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.simulator.Simulators;
import dev.toolgate.simulator.tls.SimulatorTls;
import dev.toolgate.targets.tls.TlsSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import javax.net.ssl.SSLServerSocket;

/**
 * What a TLS failure proves about a request: a refused handshake left nothing at the target, so it is
 * "not sent" and may be retried blindly; a completed one carries the request like plain HTTP.
 */
class TargetHttpClientTlsIT {

    private static Simulators simulators;

    @BeforeAll
    static void start() throws Exception {
        simulators = Simulators.start(0);
    }

    @AfterAll
    static void stop() {
        simulators.close();
    }

    @Test
    void reachesATargetWhoseCertificateComesFromTheTrustBundle() {
        assertEquals(401, answered(send(simulators.httpsBaseUrl(), tls(trusting()))), "the simulator's answer: no credentials");
    }

    @Test
    void refusesATargetSignedByACaOutsideTheTrustBundleWithNothingSent() {
        assertEquals(new Exchange.NotSent("tls_handshake_failed"), send(simulators.httpsBaseUrl(), tls(Map.of())),
                "the JDK's public CAs do not know the private one");
    }

    @Test
    void refusesACertificateForAnotherHostEvenFromTheTrustedCa() {
        assertEquals(new Exchange.NotSent("tls_handshake_failed"), send(simulators.misnamedBaseUrl(), tls(trusting())));
    }

    @Test
    void withoutAClientCertificateATargetThatAsksForOneIsNotSent() {
        assertEquals(new Exchange.NotSent("tls_handshake_failed"), send(simulators.mutualTlsBaseUrl(), tls(trusting())));
    }

    @Test
    void showsAPemClientCertificateWhenTheTargetAsksForOne() {
        Map<String, String> settings = trusting();
        settings.put("toolgate.target.t.tls.client-certificate", simulators.tls().clientChain().toString());
        settings.put("toolgate.target.t.tls.client-key", simulators.tls().clientKey().toString());
        assertEquals(401, answered(send(simulators.mutualTlsBaseUrl(), tls(settings))));
    }

    @Test
    void showsAPkcs12ClientCertificateWhenTheTargetAsksForOne() {
        Map<String, String> settings = trusting();
        settings.put("toolgate.target.t.tls.client-keystore", simulators.tls().clientKeystore().toString());
        settings.put("toolgate.target.t.tls.client-keystore-password", SimulatorTls.CLIENT_KEYSTORE_PASSWORD);
        assertEquals(401, answered(send(simulators.mutualTlsBaseUrl(), tls(settings))));
    }

    @Test
    void underTls13ACertificateRefusedAfterTheRequestWasWrittenIsLostNotUnsent() throws Exception {
        // the client's TLS 1.3 handshake ends before the server judges the certificate it did not show: the request
        // leaves, then the refusal arrives as a handshake alert; whether the target acted on it the client cannot know
        try (SSLServerSocket refusing = (SSLServerSocket) simulators.tls().mutualContext().getServerSocketFactory()
                .createServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            refusing.setEnabledProtocols(new String[] {"TLSv1.3"});
            refusing.setNeedClientAuth(true);
            Thread server = new Thread(() -> {
                try (Socket connection = refusing.accept()) {
                    connection.getInputStream().read();
                } catch (IOException refused) {
                    // the handshake fails here, as it should
                }
            });
            server.start();
            Exchange exchange = new TargetHttpClient(Duration.ofSeconds(2), Duration.ofSeconds(5), tls(trusting()))
                    .send(TargetRequest.post(URI.create("https://127.0.0.1:" + refusing.getLocalPort() + "/payments"), "{}"));
            server.join(5_000);
            assertEquals(new Exchange.Lost("connection_lost"), exchange);
        }
    }

    private static Map<String, String> trusting() {
        return new HashMap<>(Map.of("toolgate.target.t.tls.trust-bundle", simulators.tls().caBundle().toString()));
    }

    private static TlsSettings tls(Map<String, String> settings) {
        return TlsSettings.from(name -> Optional.ofNullable(settings.get(name)), "t");
    }

    private static Exchange send(String base, TlsSettings tls) {
        return new TargetHttpClient(Duration.ofSeconds(2), Duration.ofSeconds(5), tls)
                .send(TargetRequest.get(URI.create(Simulators.yooKassaUrl(base) + "payments/absent")));
    }

    private static int answered(Exchange exchange) {
        if (exchange instanceof Exchange.Answered answered) {
            return answered.status();
        }
        throw new AssertionError("expected an answer, got " + exchange);
    }
}
