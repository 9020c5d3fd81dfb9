/**
 * Bitrix24 CRM through an incoming webhook (docs/targets.md): a deal carries our key in {@code ORIGINATOR_ID} +
 * {@code ORIGIN_ID} and is found by it with {@code crm.deal.list}; a lost deal is found by its stage.
 */
package dev.toolgate.targets.bitrix24;
