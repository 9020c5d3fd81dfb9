/**
 * TLS to a target, from the settings under {@code toolgate.target.<system>.tls.}: which CAs a target's
 * certificate may come from (a PEM trust bundle that replaces the JDK's default trust for that target)
 * and which certificate the gateway shows when the target asks for one (mutual TLS). Host names are
 * always verified (RFC 2818 §3.1, RFC 6125). A setting that cannot be used stops the target with a
 * message naming the setting; it never falls back to weaker trust. Only JDK APIs: PEM is parsed here.
 * docs/tls.md is the operator's reference.
 */
package dev.toolgate.targets.tls;
