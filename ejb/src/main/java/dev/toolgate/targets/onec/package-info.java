/**
 * 1C:Enterprise accounting through the standard OData interface (docs/targets.md). OData has no idempotency header,
 * so our key is written into an extension requisite of the document and found again with {@code $filter}; the filter
 * and the POST are separate calls, so the gateway's lease is what keeps two creates from racing.
 */
package dev.toolgate.targets.onec;
