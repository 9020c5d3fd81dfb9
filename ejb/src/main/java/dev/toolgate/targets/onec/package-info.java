/**
 * 1C:Enterprise accounting through the standard OData interface (docs/targets.md).
 *
 * <p>OData has no idempotency header, so our operation key is written into an extension requisite
 * of the document and found again with {@code $filter}. The filter and the POST are separate calls,
 * so the gateway's lease is what keeps two creates from racing; the look-up settles the rest.
 */
package dev.toolgate.targets.onec;
