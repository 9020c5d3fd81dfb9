/**
 * Canonical form of an agent's command and its fingerprint: two requests are the same intent exactly when their
 * canonical JSON is byte-equal (keys sorted, money in minor units, timestamps in UTC, unknown fields refused per the
 * {@link dev.toolgate.canonical.OperationCatalog}); the fingerprint is the SHA-256 of that form.
 */
package dev.toolgate.canonical;
