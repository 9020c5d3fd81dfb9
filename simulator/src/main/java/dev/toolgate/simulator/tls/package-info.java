/**
 * The simulators' own public-key infrastructure: a certificate authority made fresh for each run, the
 * server certificates of the HTTPS origins it signs, and a client certificate for the origin that asks
 * for one (mutual TLS, RFC 8446 §4.3.2). Its CA certificate is written as PEM for the gateway's
 * {@code tls.trust-bundle} setting and for test clients ({@code NODE_EXTRA_CA_CERTS}).
 */
package dev.toolgate.simulator.tls;
