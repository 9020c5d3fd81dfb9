/**
 * YooKassa API v3 (docs/targets.md): {@code payment.create} as {@code POST /v3/payments},
 * {@code payment.refund} as {@code POST /v3/refunds}, each with an {@code Idempotence-Key} derived from
 * our key and {@code metadata.gw_key} holding it. YooKassa deduplicates by that header for 24 hours;
 * past that, and whenever an outcome is unknown, the payment or refund is found by listing and
 * matching the metadata on our side (the API has no metadata filter).
 */
package dev.toolgate.targets.yookassa;
