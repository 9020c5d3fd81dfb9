/**
 * Bitrix24 CRM through an incoming webhook (docs/targets.md): {@code crm.deal.add}
 * with {@code ORIGINATOR_ID} + {@code ORIGIN_ID} carrying our key, {@code crm.deal.list} to find it.
 * Bitrix24 has no idempotency key and nothing makes {@code ORIGIN_ID} unique, so every attempt after
 * the first lists before it adds.
 */
package dev.toolgate.targets.bitrix24;
