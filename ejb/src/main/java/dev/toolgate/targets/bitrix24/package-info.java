/**
 * Bitrix24 CRM through an incoming webhook (docs/targets.md): {@code crm.deal.add}
 * with {@code ORIGINATOR_ID} + {@code ORIGIN_ID} carrying our key, {@code crm.deal.list} to find it.
 * Bitrix24 has no idempotency key and nothing makes {@code ORIGIN_ID} unique, so every attempt after
 * the first lists before it adds. {@code crm.deal.lose} names an existing deal by its id and is looked up
 * by the deal's stage ({@code crm.deal.get}).
 */
package dev.toolgate.targets.bitrix24;
