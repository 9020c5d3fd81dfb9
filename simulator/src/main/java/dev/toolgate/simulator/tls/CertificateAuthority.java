package dev.toolgate.simulator.tls;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/**
 * A private CA that lives for one run, like a company's own CA in front of an on-premises 1C. Keys are
 * ECDSA P-256: quick to make, and accepted by the JDK, OpenSSL and Node alike.
 */
public final class CertificateAuthority {

    // long enough for any run, short enough that a leaked test CA is worthless soon
    private static final Duration VALIDITY = Duration.ofDays(2);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final KeyPair keys;
    private final X509Certificate certificate;

    private CertificateAuthority(KeyPair keys, X509Certificate certificate) {
        this.keys = keys;
        this.certificate = certificate;
    }

    public static CertificateAuthority create(String name) {
        KeyPair keys = newKeys();
        X500Name subject = new X500Name("CN=" + name);
        try {
            X509v3CertificateBuilder builder = builder(subject, subject, keys)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            return new CertificateAuthority(keys, sign(builder, keys));
        } catch (CertIOException e) {
            throw new IllegalStateException("could not build the CA certificate", e);
        }
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** A server certificate naming {@code dnsNames} and {@code ipAddresses} (RFC 6125 checks the SAN, not the CN). */
    public Issued issueServer(List<String> dnsNames, List<String> ipAddresses) {
        GeneralName[] names = new GeneralName[dnsNames.size() + ipAddresses.size()];
        int i = 0;
        for (String dns : dnsNames) {
            names[i++] = new GeneralName(GeneralName.dNSName, dns);
        }
        for (String ip : ipAddresses) {
            names[i++] = new GeneralName(GeneralName.iPAddress, ip);
        }
        return issue(dnsNames.isEmpty() ? ipAddresses.get(0) : dnsNames.get(0), KeyPurposeId.id_kp_serverAuth,
                new GeneralNames(names));
    }

    /** A client certificate for mutual TLS, as an nginx {@code ssl_verify_client on} front expects. */
    public Issued issueClient(String commonName) {
        return issue(commonName, KeyPurposeId.id_kp_clientAuth, null);
    }

    private Issued issue(String commonName, KeyPurposeId purpose, GeneralNames names) {
        KeyPair subjectKeys = newKeys();
        try {
            X509v3CertificateBuilder builder = builder(new X500Name(certificate.getSubjectX500Principal().getName()),
                    new X500Name("CN=" + commonName), subjectKeys)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
            if (names != null) {
                builder.addExtension(Extension.subjectAlternativeName, false, names);
            }
            return new Issued(subjectKeys.getPrivate(), sign(builder, keys), certificate);
        } catch (CertIOException e) {
            throw new IllegalStateException("could not build a certificate for " + commonName, e);
        }
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair subjectKeys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, RANDOM).add(BigInteger.ONE),
                Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(VALIDITY)), subject, subjectKeys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer) {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("could not sign a certificate", e);
        }
    }

    private static KeyPair newKeys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no EC key pair generator", e);
        }
    }
}
