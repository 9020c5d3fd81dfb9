/**
 * YooKassa API v3 (docs/targets.md): payments and refunds carry an {@code Idempotence-Key} derived from our key and
 * {@code metadata.gw_key} holding it; they are found again by listing and matching the metadata on our side (the API
 * has no metadata filter).
 */
package dev.toolgate.targets.yookassa;
