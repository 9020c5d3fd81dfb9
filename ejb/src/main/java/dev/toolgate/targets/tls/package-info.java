/**
 * TLS to a target (docs/tls.md): which CAs its certificate may come from, and which certificate the gateway shows
 * when asked (mutual TLS). A setting that cannot be used stops the target with a message naming the setting; it
 * never falls back to weaker trust.
 */
package dev.toolgate.targets.tls;
