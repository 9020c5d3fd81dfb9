/**
 * Canonical form of an agent's command and its fingerprint.
 *
 * <p>Two requests are the same intent exactly when their canonical JSON is byte-equal:
 * keys sorted, no insignificant whitespace, money in integer minor units, currency upper
 * case, timestamps in UTC, transport fields dropped, unknown fields rejected per the
 * {@link dev.toolgate.canonical.OperationCatalog}. The fingerprint is the SHA-256 of that form.
 */
package dev.toolgate.canonical;
